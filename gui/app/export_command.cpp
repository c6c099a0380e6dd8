#include "gui/app/export_command.hpp"

#include "gui/export/report_export.hpp"

#include <QCommandLineParser>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace hitmap::gui {

namespace {

class ExportArgumentError : public std::invalid_argument {
public:
    explicit ExportArgumentError(const QString& what)
        : std::invalid_argument(what.toStdString()) {}
};

analysis::ReportRequest request_from(const QCommandLineParser& p) {
    analysis::ReportRequest request;
    if (p.isSet(QStringLiteral("runs")) && p.isSet(QStringLiteral("workload")))
        throw ExportArgumentError(QStringLiteral("--runs and --workload exclude each other"));
    if (p.isSet(QStringLiteral("runs")))
        request.runs = analysis::parse_run_ids(p.value(QStringLiteral("runs")).toStdString());
    if (p.isSet(QStringLiteral("workload")))
        request.workload = p.value(QStringLiteral("workload")).toStdString();
    bool ok = false;
    const int lines = p.value(QStringLiteral("lines")).toInt(&ok);
    if (!ok || lines < 0 || lines > 1000)
        throw ExportArgumentError(QStringLiteral("--lines: '%1' is not a count in 0..1000")
                                      .arg(p.value(QStringLiteral("lines"))));
    request.lines_per_run = static_cast<std::size_t>(lines);
    return request;
}

} // namespace

bool is_export_command(int argc, char** argv) {
    return argc > 1 && std::strcmp(argv[1], "export") == 0;
}

int run_export_command(const QStringList& arguments) {
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Write a report of runs as one self-contained HTML file or a PDF, with the app's "
        "charts: runs and their sources, the hottest cachelines by field, line strips and "
        "field bars of a comparison (exactly two --runs, the first as before), lock classes "
        "and wait histograms, scaling. Markdown, CSV and JSON: `hitmap-collect export`."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("db"), QStringLiteral("SQLite database (default: hitmap.db)."),
         QStringLiteral("file"), QStringLiteral("hitmap.db")},
        {QStringLiteral("runs"), QStringLiteral("Run ids, e.g. 3,4 (two: compared)."),
         QStringLiteral("ids")},
        {QStringLiteral("workload"), QStringLiteral("Every complete run of this workload."),
         QStringLiteral("name")},
        {QStringLiteral("format"), QStringLiteral("html or pdf (default: html)."),
         QStringLiteral("format"), QStringLiteral("html")},
        {{QStringLiteral("o"), QStringLiteral("output")},
         QStringLiteral("File to write."),
         QStringLiteral("file")},
        {QStringLiteral("lines"), QStringLiteral("Hottest lines listed per run (default: 5)."),
         QStringLiteral("count"), QStringLiteral("5")},
    });
    QStringList args = arguments;
    args.removeAt(1);                          // "export"
    args[0] = QStringLiteral("hitmap export"); // for --help's usage line
    if (!p.parse(args)) {
        std::fprintf(stderr, "hitmap export: %s\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(p.helpText()));
        return 0;
    }
    try {
        if (!p.positionalArguments().isEmpty())
            throw ExportArgumentError(
                QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().first()));
        const auto format = report_format(p.value(QStringLiteral("format")));
        if (!format)
            throw ExportArgumentError(QStringLiteral("--format: '%1' is not html or pdf")
                                          .arg(p.value(QStringLiteral("format"))));
        const QString output = p.value(QStringLiteral("output"));
        if (output.isEmpty())
            throw ExportArgumentError(QStringLiteral("-o FILE is required"));
        export_report(p.value(QStringLiteral("db")), request_from(p), *format, output);
        std::printf("wrote %s\n", qPrintable(output));
        return 0;
    } catch (const std::invalid_argument& e) { // ExportArgumentError, analysis::ReportRequestError
        std::fprintf(stderr, "hitmap export: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hitmap export: %s\n", e.what());
        return 1;
    }
}

} // namespace hitmap::gui
