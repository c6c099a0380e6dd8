#pragma once
// One cacheline of one run: the byte strip, the line's drill-down in one line (Lcl/Rmt HITM,
// share, loads, stores, node, cycles), then per-offset rows, the code that touched them (perf
// c2c's rows: symbols, source lines, pid/tid, CPUs), the field pairs (who invalidates whom,
// true/false sharing) and the per-CPU split.
#include "collector/c2c/replay_result.hpp"

#include <QWidget>
#include <memory>

class QCheckBox;
class QLabel;
class QTabWidget;

namespace hitmap::analysis {
struct RunDetail;
}

namespace hitmap::gui {

class DataTable;
class StripWidget;
using analysis::RunDetail;

class LineDetailView : public QWidget {
    Q_OBJECT
public:
    explicit LineDetailView(QWidget* parent = nullptr);
    void setLine(std::shared_ptr<const RunDetail> detail, const c2c::LineKey& line);
    void clear();
    StripWidget* strip() const { return strip_; }
    DataTable* offsets() const { return offsets_; }
    DataTable* pairs() const { return pairs_; }
    DataTable* cpus() const { return cpus_; }
    DataTable* code() const { return code_; }
    DataTable* access() const { return access_; }
    QLabel* summary() const { return summary_; }

private:
    void refresh();

    std::shared_ptr<const RunDetail> detail_;
    c2c::LineKey line_;
    StripWidget* strip_;
    QCheckBox* pair_lines_;
    QLabel* summary_;
    QTabWidget* tabs_;
    DataTable* offsets_;
    DataTable* code_;
    DataTable* access_;
    DataTable* pairs_;
    DataTable* cpus_;
};

} // namespace hitmap::gui
