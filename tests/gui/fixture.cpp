#include "fixture.hpp"

#include "gui/models/db_loader.hpp"

#include <QDir>
#include <QFileInfo>
#include <QProcess>

namespace hitmap::gui::test {

QString run_collector(const QStringList& args, const QString& db) {
    QProcess p;
    p.start(QStringLiteral(HITMAP_COLLECT_PATH), args + QStringList{QStringLiteral("--db"), db});
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("hitmap-collect %1 failed: %2")
            .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAllStandardError()));
    return {};
}

AppResult run_app(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(HITMAP_APP_PATH), args);
    const bool finished = p.waitForFinished(kWaitMs);
    return {finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString shared_file(const QString& relative) {
    const QString dir = qEnvironmentVariableIsEmpty("HITMAP_SHARED_DIR")
                            ? QStringLiteral(HITMAP_SHARED_DIR_DEFAULT)
                            : qEnvironmentVariable("HITMAP_SHARED_DIR");
    const QString path = QDir(dir).filePath(relative);
    return QFileInfo::exists(path) ? path : QString();
}

Fixture make_fixture(const QTemporaryDir& dir) {
    Fixture f;
    f.db = dir.filePath(QStringLiteral("fixture.db"));
    f.error = run_collector(
        {QStringLiteral("run"), QStringLiteral("page-counter-charge"), QStringLiteral("--variant"),
         QStringLiteral("v6.0,v6.1"), QStringLiteral("--threads"), QStringLiteral("2"),
         QStringLiteral("--duration"), QStringLiteral("200ms"), QStringLiteral("--trace-mb"),
         QStringLiteral("8"), QStringLiteral("--progress"), QStringLiteral("none")},
        f.db);
    if (f.error.isEmpty())
        for (const auto& r : read_run_list(f.db).runs)
            (r.variant == "v6.0" ? f.v60 : f.v61) = r.id;
    return f;
}

Imported import_perf_c2c_reports(const QTemporaryDir& dir) {
    Imported imported{dir.filePath(QStringLiteral("imported.db")), {}};
    for (const char* report :
         {"joemario-c2c-blog-example-2016.txt", "perfgo-false-sharing-amd-ibs-example.txt"}) {
        const QString file = shared_file(QStringLiteral("fixtures/c2c/") + QLatin1String(report));
        if (file.isEmpty())
            return {};
        imported.error = run_collector({QStringLiteral("import"), QStringLiteral("perf-c2c"), file},
                                       imported.db);
        if (!imported.error.isEmpty())
            break;
    }
    return imported;
}

} // namespace hitmap::gui::test
