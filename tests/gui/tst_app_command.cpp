// The `hitmap` command itself, run as a user runs it: --help and --version without a display,
// --screenshot without one on every kind of database the collector writes (software-traced,
// simulated, imported perf c2c), --screenshot and export on a megabyte variant name, and
// one-line errors with their exit codes for a missing file, a usage error and a window with
// no display to open on.
#include "fixture.hpp"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <SQLiteCpp/SQLiteCpp.h>
#include <sys/stat.h>

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

    // --size takes the laptop's screen; a size no screen has is refused in one line.
    void screenshotSizes() {
        const QTemporaryDir own; // make_fixture copies into a folder once
        QVERIFY(own.isValid());
        const test::Fixture fixture = test::make_fixture(own);
        QVERIFY2(fixture.error.isEmpty(), qPrintable(fixture.error));
        const test::AppResult r =
            test::run_app({QStringLiteral("--screenshot"), path(QStringLiteral("laptop")),
                           QStringLiteral("--size"), QStringLiteral("1366x768"), fixture.db},
                          no_display());
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QSize size = QImageReader(path(QStringLiteral("laptop/compare.png"))).size();
        QCOMPARE(size, QSize(1366, 768));
        const test::AppResult bad =
            test::run_app({QStringLiteral("--screenshot"), path(QStringLiteral("bad")),
                           QStringLiteral("--size"), QStringLiteral("10x10"), fixture.db},
                          no_display());
        QCOMPARE(bad.status, 2);
        QCOMPARE(bad.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(bad.err.contains(QStringLiteral("--size")), qPrintable(bad.err));
    }

    // Runs on the simulated 72-CPU Xeon: their tables come from the simulation, not a trace.
    void screenshotOfSimulatedRuns() {
        const QString db = path(QStringLiteral("simulated.db"));
        QVERIFY(QFile::copy(QStringLiteral(HITMAP_TEST_DATA "/simulated-pair.db"), db));
        QVERIFY(QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner));
        const QStringList files = screenshot(db, QStringLiteral("simulated"));
        for (const char* picture : {"cacheline-table.png", "compare.png", "layout.png"})
            QVERIFY2(files.contains(QLatin1String(picture)), picture);
    }

    // perf c2c reports of other machines, imported (fixture.hpp).
    void screenshotOfImportedPerfC2cReports() {
        const test::Imported imported = test::import_perf_c2c_reports(dir_);
        if (imported.db.isEmpty())
            QSKIP("shared fixtures not found (set HITMAP_SHARED_DIR to the shared/ folder)");
        QVERIFY2(imported.error.isEmpty(), qPrintable(imported.error));
        const QString& db = imported.db;
        const QStringList files = screenshot(db, QStringLiteral("imported"));
        for (const char* picture :
             {"cacheline-table.png", "line-detail.png", "compare.png", "layout.png"})
            QVERIFY2(files.contains(QLatin1String(picture)), picture);
    }

    // A plugin may register a variant of a megabyte. The pictures keep the window's size (a
    // 10 KB name made them 71,759 pixels wide) and the report's pictures theirs; both commands
    // finish (1 MB did not in 60 s).
    void megabyteNameKeepsPicturesAndReportsBounded() {
        const QString db = path(QStringLiteral("megabyte.db"));
        QVERIFY(QFile::copy(QStringLiteral(HITMAP_TEST_DATA "/small.db"), db));
        {
            SQLite::Database sql(db.toStdString(), SQLite::OPEN_READWRITE);
            SQLite::Statement rename(sql, "UPDATE run SET variant = ? WHERE id = 1");
            rename.bind(1, std::string(1 << 20, 'x'));
            QCOMPARE(rename.exec(), 1);
        }
        const QStringList files = screenshot(db, QStringLiteral("megabyte"));
        QVERIFY(files.contains(QStringLiteral("compare.png")));
        for (const QString& f : files) {
            const QSize size = QImageReader(path(QStringLiteral("megabyte/") + f)).size();
            QVERIFY2(size.width() == 1400 && size.height() <= 900,
                     qPrintable(
                         QStringLiteral("%1: %2x%3").arg(f).arg(size.width()).arg(size.height())));
        }

        const QString html = path(QStringLiteral("megabyte.html"));
        const test::AppResult exported = test::run_app(
            {QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--runs"),
             QStringLiteral("1,2"), QStringLiteral("-o"), html},
            no_display());
        QCOMPARE(exported.status, 0);
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(page.readAll());
        // The tables keep the name whole; each picture is at most a chart's or the strips' width.
        QVERIFY(text.contains(QString(1 << 20, QLatin1Char('x'))));
        const QRegularExpression view_box(QStringLiteral("<svg[^>]*viewBox=\"0 0 (\\d+) (\\d+)\""));
        int pictures = 0;
        for (auto it = view_box.globalMatch(text); it.hasNext(); ++pictures) {
            const auto m = it.next();
            QVERIFY2(m.captured(1).toInt() <= 1400, qPrintable(m.captured(0)));
        }
        QVERIFY(pictures >= 3);

        const QString pdf = path(QStringLiteral("megabyte.pdf"));
        const test::AppResult printed = test::run_app(
            {QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--runs"),
             QStringLiteral("1,2"), QStringLiteral("--format"), QStringLiteral("pdf"),
             QStringLiteral("-o"), pdf},
            no_display());
        QCOMPARE(printed.status, 0);
        QVERIFY(QFileInfo(pdf).size() > 0);
    }

    void missingDatabaseIsNoSuchFile() {
        const QString missing = path(QStringLiteral("missing.db"));
        const test::AppResult r = test::run_app(
            {QStringLiteral("--screenshot"), path(QStringLiteral("none")), missing}, no_display());
        QCOMPARE(r.status, 1);
        check_one_line(r, missing + QStringLiteral(": no such file"));
        QVERIFY(!QFileInfo::exists(missing));
    }

    // A FIFO must not block the command (nor a directory pass for a database).
    void fifoIsNotARegularFile() {
        const QString fifo = path(QStringLiteral("fifo.db"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        for (const QString& db : {fifo, dir_.path()}) {
            const test::AppResult r = test::run_app(
                {QStringLiteral("--screenshot"), path(QStringLiteral("none")), db}, no_display());
            QCOMPARE(r.status, 1);
            check_one_line(r, db + QStringLiteral(": not a regular file"));
        }
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
