#pragma once
// Reads the store off the GUI thread. Every request opens its own read-only connection in a
// pool thread; results come back on the GUI thread as plain values. Latest request wins: a
// result whose generation was superseded while it was loading is dropped. The running kernel's
// BTF, which the layout view reads, is read the same way.
#include "collector/analysis/layout_catalog.hpp"
#include "collector/analysis/report_data.hpp"
#include "collector/analysis/run_detail.hpp"
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

using analysis::CompareData;
using analysis::RunDetail;

class DbLoader : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    QString path() const { return path_; }
    // Supersedes every pending request: runs and details of another file are stale.
    void openDatabase(const QString& path);
    void loadRun(qint64 run_id);
    void loadCompare(qint64 before, qint64 after);
    // The report of an export; drawing and writing it is the caller's, on the GUI thread.
    void loadReport(const analysis::ReportRequest& wanted);
    // The layouts stored with the runs and the runs' heat per struct (the layout view).
    void loadLayouts();
    // `struct_name` as the running kernel's BTF lays it out (btf::resolve_layout "btf").
    void loadKernelLayout(const QString& struct_name);
    // For tests: true while any request is in flight.
    bool busy() const { return pending_ > 0; }

signals:
    void runsLoaded(const hitmap::gui::RunList& runs);
    void openFailed(const QString& path, const QString& reason);
    void runLoaded(std::shared_ptr<const hitmap::analysis::RunDetail> detail);
    void compareLoaded(std::shared_ptr<const hitmap::analysis::CompareData> data);
    void reportLoaded(std::shared_ptr<const hitmap::analysis::Report> report);
    void layoutsLoaded(std::shared_ptr<const hitmap::analysis::LayoutCatalog> catalog);
    void kernelLayoutLoaded(const QString& struct_name,
                            std::shared_ptr<const hitmap::engine::Layout> layout);
    // Why the running kernel has no usable layout of it (no BTF, no such struct, fields the
    // engine needs missing), in one line.
    void kernelLayoutFailed(const QString& struct_name, const QString& reason);
    void loadFailed(const QString& reason);
    // Every request made so far is answered (and its answer shown): busy() turned false.
    void idle();

private:
    template <typename Read, typename Done, typename Failed>
    void request(unsigned& generation, Read read, Done done, Failed failed);

    QString path_;
    unsigned open_generation_ = 0, run_generation_ = 0, compare_generation_ = 0,
             report_generation_ = 0, layouts_generation_ = 0, kernel_generation_ = 0;
    int pending_ = 0;
};

// The blocking reads behind DbLoader, usable directly by tests and the screenshot mode.
// They throw store::StoreError (one-line what()) on unreadable files and unknown runs.
RunList read_run_list(const QString& path);
RunDetail read_run_detail(const QString& path, qint64 run_id);
CompareData read_compare(const QString& path, qint64 before, qint64 after);
analysis::Report read_report(const QString& path, const analysis::ReportRequest& request);
analysis::LayoutCatalog read_layout_catalog(const QString& path);
// The complete runs that hold lock statistics (a lock_stat table with classes), ascending.
std::vector<qint64> read_runs_with_locks(const QString& path);

} // namespace hitmap::gui
