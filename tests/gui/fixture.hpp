#pragma once
// The tests' databases and how they run the app's binaries. The main fixture is
// tests/data/small.db with its traces, written by the real collector on this project's VM:
// page-counter-charge v6.0 and v6.1 and res-counter-charge per-page and precharge, 2 threads,
// software c2c, the res_counter runs with lock statistics. It is fixed data because a run made
// during the test holds what the VM's scheduling gave it: beside two busy loops the two
// threads' traced windows often never overlapped, no line moved between caches, and the tests
// that look at the hottest lines failed.
#include <QProcessEnvironment>
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

struct AppResult {
    int status = -1; // the exit code; -1 when it crashed or did not finish within kWaitMs
    QString out, err;
};
// Runs the `hitmap` binary with ARGS in `env` (by default the test's own environment).
AppResult run_app(const QStringList& args,
                  const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

// `relative` in the shared fixtures folder (HITMAP_SHARED_DIR, else the build's default);
// empty when it is not there.
QString shared_file(const QString& relative);

struct Fixture {
    QString db;
    QString error; // why it could not be copied; empty on success
    qint64 v60 = 0, v61 = 0, per_page = 0, precharge = 0;
};
// Copies the fixture as fixture.db (and fixture.db.traces) into `dir` and reads back its runs'
// ids.
Fixture make_fixture(const QTemporaryDir& dir);

// imported.db in `dir`: two perf c2c reports of other machines (Intel 2016, AMD IBS) from the
// shared fixtures, imported: no threads, no throughput, each line its own "perf-c2c line" type.
struct Imported {
    QString db;    // empty when the shared fixtures are not there (skip)
    QString error; // why an import failed
};
Imported import_perf_c2c_reports(const QTemporaryDir& dir);

} // namespace hitmap::gui::test
