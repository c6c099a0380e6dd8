#pragma once
// A small database written by the real collector: v6.0 and v6.1 of page-counter-charge at
// 2 threads with software c2c.
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtGlobal>

namespace hitmap::gui::test {

// How long a test waits for an event (a load answered, a signal emitted) before failing: the
// condition is what the test waits on, never a sleep, and the limit only ends a hung test. It is
// generous because CI runs the tests beside other builds on 2 vCPUs (with two busy loops beside
// it, a database load that takes 20 ms alone took seconds).
constexpr int kWaitMs = 60000;

// Runs `hitmap-collect ARGS --db DB`; returns the collector's stderr when it fails.
QString run_collector(const QStringList& args, const QString& db);

struct Fixture {
    QString db;
    QString error; // why it could not be written; empty on success
    qint64 v60 = 0, v61 = 0;
};
// Writes the fixture as fixture.db in `dir` and reads back its two runs' ids.
Fixture make_fixture(const QTemporaryDir& dir);

} // namespace hitmap::gui::test
