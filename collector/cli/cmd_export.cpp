// `hitmap-collect export`: a report of chosen runs as Markdown, CSV or JSON, without Qt, for CI
// step summaries and scripts. HTML and PDF come from the app (`hitmap export`), whose charts
// match its screens.
#include "collector/analysis/report_data.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/report_csv.hpp"
#include "collector/report/report_file.hpp"
#include "collector/report/report_json.hpp"
#include "collector/report/report_markdown.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

namespace {

void write_csv_tables(const analysis::Report& r, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw report::ReportWriteError(
            fmt::format("cannot create {}: {}", dir.string(), ec.message()));
    for (const report::ReportTable& t : report::report_tables(r)) {
        const auto file = dir / (t.id + ".csv");
        report::write_report_file(file, report::table_csv(t));
        fmt::print("wrote {}\n", report::escape_control(file.string()));
    }
}

} // namespace

void add_export_command(CLI::App& app) {
    struct Options {
        std::string db = "hitmap.db", runs, workload, format = "md", output, lines = "5";
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "export",
        "Write a report of runs as Markdown (a CI step summary), CSV (one file per table) or "
        "JSON (schemas/report.schema.json): the runs and their sources, the hottest cachelines "
        "with field names, lock classes, scaling, and with exactly two --runs their comparison "
        "field by field. HTML and PDF: `hitmap export`");
    cmd->add_option("--db", o->db, "SQLite database")->capture_default_str();
    auto* runs = cmd->add_option("--runs", o->runs,
                                 "Run ids, e.g. 3,4 (two: compared, the first as before)");
    cmd->add_option("--workload", o->workload, "Every complete run of this workload")
        ->excludes(runs);
    auto* format = cmd->add_option("--format", o->format, "md, csv or json")
                       ->check(CLI::IsMember({"md", "csv", "json"}))
                       ->capture_default_str();
    // Every data command's --json (README): here the same as --format json.
    cmd->add_flag_callback(
           "--json", [o] { o->format = "json"; }, "Print JSON: --format json")
        ->excludes(format);
    cmd->add_option("-o,--output", o->output,
                    "File to write (md, json; default or -: standard output) or folder (csv: "
                    "required)");
    cmd->add_option("--lines", o->lines, "Hottest lines listed per run")->capture_default_str();
    cmd->callback([o] {
        analysis::ReportRequest request;
        if (!o->runs.empty())
            request.runs = analysis::parse_run_ids(o->runs);
        if (!o->workload.empty())
            request.workload = o->workload;
        request.lines_per_run = parse_count(o->lines, "--lines", 0, 1000);
        if (o->format == "csv" && (o->output.empty() || o->output == "-"))
            throw UsageError("--format csv writes one file per table: give a folder with -o");
        store::Database db =
            store::Database::open(o->db, {.create_if_missing = false, .read_only = true});
        const analysis::Report r = analysis::build_report(db, request);
        if (o->format == "csv")
            return write_csv_tables(r, o->output);
        const std::string text = o->format == "json"
                                     ? report::json_text(report::report_json(r)) + "\n"
                                     : report::report_markdown(r);
        if (o->output.empty())
            fmt::print("{}", text);
        else
            report::write_report_file(o->output, text);
    });
}

} // namespace hitmap::cli
