#pragma once
// A small database written by the real collector: v6.0 and v6.1 of page-counter-charge at
// 2 threads with software c2c.
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace hitmap::gui::test {

// Runs `hitmap-collect ARGS --db DB`; returns the collector's stderr when it fails.
QString run_collector(const QStringList& args, const QString& db);
// Writes the fixture into `db`; returns an error text, empty on success.
QString make_fixture(const QString& db);

// The ids of the fixture's two runs; 0 where one is missing.
struct FixtureRuns {
    qint64 v60 = 0, v61 = 0;
};
FixtureRuns fixture_runs(const QString& db);

} // namespace hitmap::gui::test
