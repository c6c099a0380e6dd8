#pragma once
// Reads the store off the GUI thread. Every request opens its own read-only connection in a
// pool thread; results come back on the GUI thread as plain values. Latest request wins: a
// result whose generation was superseded while it was loading is dropped.
#include "collector/report/prediction.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/store/records.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace hitmap::gui {

struct RunList {
    QString path;
    bool exists = true; // false: no file yet, show the empty state
    std::vector<store::RunRecord> runs;
};

struct RunDetail {
    store::RunRecord run;
    std::optional<store::C2cData> c2c;  // nullopt: collected without c2c
    std::vector<store::LockData> locks; // engine, kernel or imported lock tables
    // Why `run --kernel-locks` stored no kernel rows (no tracefs, no privilege, ...).
    std::optional<std::string> kernel_locks_unavailable;
};

struct CompareData {
    RunDetail before, after;
    // A prediction of `after` computed from `before`, when one is stored.
    std::optional<store::RunRecord> prediction_run;
    std::optional<report::Prediction> prediction;
};

class DbLoader : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    QString path() const { return path_; }
    // Supersedes every pending request: runs and details of another file are stale.
    void openDatabase(const QString& path);
    void loadRun(qint64 run_id);
    void loadCompare(qint64 before, qint64 after);
    // For tests: true while any request is in flight.
    bool busy() const { return pending_ > 0; }

signals:
    void runsLoaded(const hitmap::gui::RunList& runs);
    void openFailed(const QString& path, const QString& reason);
    void runLoaded(std::shared_ptr<const hitmap::gui::RunDetail> detail);
    void compareLoaded(std::shared_ptr<const hitmap::gui::CompareData> data);
    void loadFailed(const QString& reason);

private:
    QString path_;
    unsigned open_generation_ = 0, run_generation_ = 0, compare_generation_ = 0;
    int pending_ = 0;
};

// The blocking reads behind DbLoader, usable directly by tests and the screenshot mode.
// They throw store::StoreError (one-line what()) on unreadable files.
RunList read_run_list(const QString& path);
RunDetail read_run_detail(const QString& path, qint64 run_id);
CompareData read_compare(const QString& path, qint64 before, qint64 after);

} // namespace hitmap::gui
