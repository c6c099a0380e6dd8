// The `hitmap` command itself, run as a user runs it: --help and --version without a display,
// --screenshot without one on every kind of database the collector writes (software-traced,
// simulated, imported perf c2c), and one-line errors with their exit codes for a missing file,
// a usage error and a window with no display to open on.
#include "fixture.hpp"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace hitmap::gui;

namespace {

// As on a server or in CI: no X11, no Wayland, no platform chosen.
QProcessEnvironment no_display() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    return env;
}

// A failure's stderr: one line, starting with the command.
void check_one_line(const test::AppResult& r, const QString& message) {
    QVERIFY2(r.err.startsWith(QStringLiteral("hitmap: ")) && r.err.contains(message),
             qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

} // namespace

class TestAppCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    // `hitmap --screenshot` on `db` without a display: exit code 0 and the PNGs it names.
    QStringList screenshot(const QString& db, const QString& name) {
        const test::AppResult r =
            test::run_app({QStringLiteral("--screenshot"), path(name), db}, no_display());
        if (r.status != 0 || !r.err.isEmpty()) {
            qWarning("hitmap --screenshot: status %d: %s", r.status, qPrintable(r.err));
            return {};
        }
        QStringList files;
        for (const QString& line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            files << QFileInfo(line.mid(QStringLiteral("wrote ").size())).fileName();
        for (const QString& f : QDir(path(name)).entryList(QDir::Files))
            if (!files.contains(f))
                qWarning("%s written but not said", qPrintable(f));
        return files;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void helpAndVersionNeedNoDisplay() {
        const test::AppResult help = test::run_app({QStringLiteral("--help")}, no_display());
        QCOMPARE(help.status, 0);
        QVERIFY2(help.out.contains(QStringLiteral("--screenshot <dir>")) &&
                     help.out.contains(QStringLiteral("--version")),
                 qPrintable(help.out));
        const test::AppResult version = test::run_app({QStringLiteral("--version")}, no_display());
        QCOMPARE(version.status, 0);
        QVERIFY(version.err.isEmpty());
        // CMake's project(VERSION), and the commit where the sources are a git checkout.
        QVERIFY2(version.out.startsWith(QStringLiteral("hitmap " HITMAP_PROJECT_VERSION)),
                 qPrintable(version.out));
        QCOMPARE(version.out.count(QLatin1Char('\n')), 1);
    }

    // The collector's own database: every picture.
    void screenshotWithoutADisplay() {
        const test::Fixture fixture = test::make_fixture(dir_);
        QVERIFY2(fixture.error.isEmpty(), qPrintable(fixture.error));
        const QStringList files = screenshot(fixture.db, QStringLiteral("traced"));
        for (const char* picture :
             {"cacheline-table.png", "line-detail.png", "compare.png", "scaling.png", "layout.png"})
            QVERIFY2(files.contains(QLatin1String(picture)), picture);
    }

    // Runs on the simulated 72-CPU Xeon: their tables come from the simulation, not a trace.
    void screenshotOfSimulatedRuns() {
        const QString db = path(QStringLiteral("simulated.db"));
        const QString error = test::run_collector(
            {QStringLiteral("run"), QStringLiteral("page-counter-charge"),
             QStringLiteral("--variant"), QStringLiteral("v6.0,v6.1"), QStringLiteral("--simulate"),
             QStringLiteral("xeon-2s-72"), QStringLiteral("--threads"), QStringLiteral("8"),
             QStringLiteral("--iterations"), QStringLiteral("300"), QStringLiteral("--calibration"),
             QStringLiteral(HITMAP_TEST_DATA "/calibration/page-counter-charge.json"),
             QStringLiteral("--progress"), QStringLiteral("none")},
            db);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList files = screenshot(db, QStringLiteral("simulated"));
        for (const char* picture : {"cacheline-table.png", "compare.png", "layout.png"})
            QVERIFY2(files.contains(QLatin1String(picture)), picture);
    }

    // perf c2c reports of other machines, imported: no threads, no throughput, lines of their
    // own "perf-c2c line" types.
    void screenshotOfImportedPerfC2cReports() {
        const QString db = path(QStringLiteral("imported.db"));
        for (const char* report :
             {"joemario-c2c-blog-example-2016.txt", "perfgo-false-sharing-amd-ibs-example.txt"}) {
            const QString file =
                test::shared_file(QStringLiteral("fixtures/c2c/") + QLatin1String(report));
            if (file.isEmpty())
                QSKIP("shared fixtures not found (set HITMAP_SHARED_DIR to the shared/ folder)");
            const QString error = test::run_collector(
                {QStringLiteral("import"), QStringLiteral("perf-c2c"), file}, db);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        const QStringList files = screenshot(db, QStringLiteral("imported"));
        for (const char* picture :
             {"cacheline-table.png", "line-detail.png", "compare.png", "layout.png"})
            QVERIFY2(files.contains(QLatin1String(picture)), picture);
    }

    void missingDatabaseIsNoSuchFile() {
        const QString missing = path(QStringLiteral("missing.db"));
        const test::AppResult r = test::run_app(
            {QStringLiteral("--screenshot"), path(QStringLiteral("none")), missing}, no_display());
        QCOMPARE(r.status, 1);
        check_one_line(r, missing + QStringLiteral(": no such file"));
        QVERIFY(!QFileInfo::exists(missing));
    }

    void usageErrorIsOneLine() {
        const test::AppResult r = test::run_app({QStringLiteral("--no-such-option")}, no_display());
        QCOMPARE(r.status, 2);
        check_one_line(r, QStringLiteral("no-such-option"));
    }

    // The window needs a display: without one, one line saying so (Qt alone aborts).
    void windowWithoutADisplayIsOneLine() {
        const test::AppResult r = test::run_app({path(QStringLiteral("any.db"))}, no_display());
        QCOMPARE(r.status, 1);
        check_one_line(r, QStringLiteral("no display"));
    }
};

QTEST_MAIN(TestAppCommand)
#include "tst_app_command.moc"
