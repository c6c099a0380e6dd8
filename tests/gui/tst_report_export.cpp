// The app's report export on a simulated v6.0/v6.1 pair (deterministic): the HTML is one file
// with the app's charts inline and nothing fetched from elsewhere, stored strings are escaped
// in the text and in the charts, the PDF is a PDF, `hitmap export` fails in one line and keeps
// an existing report, and File → Export report writes the pair the Compare tab shows.
#include "fixture.hpp"
#include "gui/app/main_window.hpp"
#include "gui/export/report_export.hpp"
#include "gui/views/compare_view.hpp"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <SQLiteCpp/SQLiteCpp.h>

using namespace hitmap;
using namespace hitmap::gui;

namespace {

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

analysis::ReportRequest runs(std::vector<std::int64_t> ids) {
    analysis::ReportRequest r;
    r.runs = std::move(ids);
    return r;
}

// Every <svg> of the page, each of which must be well-formed XML on its own.
QStringList svg_fragments(const QString& html) {
    QStringList out;
    const QRegularExpression svg(QStringLiteral("<svg.*?</svg>"),
                                 QRegularExpression::DotMatchesEverythingOption);
    for (auto it = svg.globalMatch(html); it.hasNext();)
        out << it.next().captured(0);
    return out;
}

} // namespace

class TestReportExport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString db_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        db_ = path(QStringLiteral("pair.db"));
        // Runs 1 and 2: v6.0 and v6.1 on the simulated 72-CPU Xeon from a committed
        // calibration (tests/data/README.md), so every figure is the same on every machine.
        QVERIFY(QFile::copy(QStringLiteral(HITMAP_TEST_DATA "/simulated-pair.db"), db_));
        QVERIFY(QFile::setPermissions(db_, QFile::ReadOwner | QFile::WriteOwner));
    }

    void htmlIsOneSelfContainedPageWithCharts() {
        const QString out = path(QStringLiteral("pair.html"));
        export_report(db_, runs({1, 2}), ReportFormat::html, out);
        const QString html = QString::fromUtf8(read_all(out));
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        // Line strips, per-field bars and the scaling chart, each drawn by the app.
        const QStringList svgs = svg_fragments(html);
        QVERIFY2(svgs.size() >= 3, qPrintable(QString::number(svgs.size())));
        for (const QString& svg : svgs) {
            QXmlStreamReader xml(svg);
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        }
        // The fields named in the tables and in the bar chart's axis.
        QVERIFY(html.contains(QStringLiteral("<td>memory.usage</td>")));
        QVERIFY(html.contains(QStringLiteral("<td>memory.high</td>")));
        QVERIFY(svgs[1].contains(QStringLiteral(">memory.usage</text>")));
        QVERIFY(html.contains(QStringLiteral("Throughput:")));
        // The header: when, on which host and kernel, by which hitmap.
        const QRegularExpression origin(QStringLiteral(
            R"(<p class="origin">Made \d{4}-\d\d-\d\dT[^ ]+Z on host [^,]+, kernel [^,]+, by )"
            R"(hitmap )" HITMAP_PROJECT_VERSION));
        QVERIFY2(origin.match(html).hasMatch(), qPrintable(html.left(1500)));
        // Every bar says its value (the tallest too: the axis leaves room above it).
        QVERIFY(svgs[1].count(QStringLiteral("<text")) > 12);
        // Nothing fetched: no script, stylesheet link, frame or import; every src/href and
        // url() stays inside the file (data: or a #fragment).
        for (const char* banned : {"<script", "<link", "<iframe", "<object", "@import"})
            QVERIFY2(!html.contains(QLatin1String(banned), Qt::CaseInsensitive), banned);
        const QRegularExpression outside(
            QStringLiteral(R"((src|href)\s*=\s*["'](?!data:|#)|url\(\s*['"]?(?!#|data:))"),
            QRegularExpression::CaseInsensitiveOption);
        const auto hit = outside.match(html);
        QVERIFY2(!hit.hasMatch(), qPrintable(html.mid(hit.capturedStart(), 80)));
    }

    void storedMarkupIsEscapedInTextAndCharts() {
        const QString copy = path(QStringLiteral("markup.db"));
        QVERIFY(QFile::copy(db_, copy));
        {
            SQLite::Database sql(copy.toStdString(), SQLite::OPEN_READWRITE);
            sql.exec("UPDATE run SET variant = '<script>alert(1)</script>' WHERE id = 1");
        }
        const QString out = path(QStringLiteral("markup.html"));
        export_report(copy, runs({1, 2}), ReportFormat::html, out);
        const QString html = QString::fromUtf8(read_all(out));
        QVERIFY(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;")));
        // The charts' legends carry the run label too.
        bool in_chart = false;
        for (const QString& svg : svg_fragments(html))
            in_chart |= svg.contains(QStringLiteral("&lt;script&gt;"));
        QVERIFY(in_chart);
    }

    void pdfIsAPdf() {
        const QString out = path(QStringLiteral("pair.pdf"));
        export_report(db_, runs({1, 2}), ReportFormat::pdf, out);
        const QByteArray pdf = read_all(out);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        QVERIFY2(pdf.size() > 20000, "the charts are missing"); // images of the charts
        QVERIFY(!QFile::exists(out + QStringLiteral(".partial")));
    }

    void commandFailsInOneLineAndKeepsTheReport() {
        const QString out = path(QStringLiteral("cmd.html"));
        const test::AppResult ok = test::run_app(
            {QStringLiteral("export"), QStringLiteral("--db"), db_, QStringLiteral("--runs"),
             QStringLiteral("1,2"), QStringLiteral("-o"), out});
        QCOMPARE(ok.status, 0);
        QVERIFY2(ok.err.isEmpty(), qPrintable(ok.err));
        const QByteArray kept = read_all(out);
        QVERIFY(kept.contains("memory.high"));
        const QList<QPair<QStringList, QString>> cases{
            {{QStringLiteral("--runs"), QStringLiteral("1,99")},
             QStringLiteral("run 99 is not in the database")},
            {{QStringLiteral("--runs"), QStringLiteral("x")}, QStringLiteral("--runs")},
            {{QStringLiteral("--format"), QStringLiteral("svg")}, QStringLiteral("html or pdf")},
            {{QStringLiteral("--db"), path(QStringLiteral("none.db"))},
             QStringLiteral("no hitmap database")},
        };
        for (const auto& [args, message] : cases) {
            const test::AppResult r =
                test::run_app(QStringList{QStringLiteral("export"), QStringLiteral("--db"), db_,
                                          QStringLiteral("-o"), out} +
                              args);
            QVERIFY2(r.status != 0, qPrintable(message));
            QVERIFY2(r.err.contains(message), qPrintable(r.err));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        }
        QCOMPARE(read_all(out), kept);
        QVERIFY(!QFile::exists(path(QStringLiteral("none.db"))));
    }

    void fileMenuExportsTheComparedPair() {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QSignalSpy shown(&w, &MainWindow::runsShown);
        w.openDatabase(db_);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, test::kWaitMs);
        w.showTab(MainWindow::CompareTab);
        w.compare()->setPair(1, 2);
        const QString out = path(QStringLiteral("menu.html"));
        QSignalSpy written(&w, &MainWindow::reportWritten);
        QVERIFY(w.exportReport(out, ReportFormat::html));
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, test::kWaitMs);
        const QString html = QString::fromUtf8(read_all(out));
        QVERIFY(html.contains(QStringLiteral("<h2>Comparison</h2>")));
        QVERIFY(html.contains(QStringLiteral("Before: run 1")));
    }
};

QTEST_MAIN(TestReportExport)
#include "tst_report_export.moc"
