#include "fixture.hpp"

#include "gui/models/db_loader.hpp"

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

QString make_fixture(const QString& db) {
    return run_collector(
        {QStringLiteral("run"), QStringLiteral("page-counter-charge"), QStringLiteral("--variant"),
         QStringLiteral("v6.0,v6.1"), QStringLiteral("--threads"), QStringLiteral("2"),
         QStringLiteral("--duration"), QStringLiteral("200ms"), QStringLiteral("--trace-mb"),
         QStringLiteral("8"), QStringLiteral("--progress"), QStringLiteral("none")},
        db);
}

FixtureRuns fixture_runs(const QString& db) {
    FixtureRuns ids;
    for (const auto& r : read_run_list(db).runs)
        (r.variant == "v6.0" ? ids.v60 : ids.v61) = r.id;
    return ids;
}

} // namespace hitmap::gui::test
