#pragma once
// One cacheline of one run: the byte strip, then per-offset rows, the field pairs (who
// invalidates whom, true/false sharing) and the per-CPU split.
#include "collector/c2c/replay_result.hpp"

#include <QWidget>
#include <memory>

class QCheckBox;
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

private:
    void refresh();

    std::shared_ptr<const RunDetail> detail_;
    c2c::LineKey line_;
    StripWidget* strip_;
    QCheckBox* pair_lines_;
    QTabWidget* tabs_;
    DataTable* offsets_;
    DataTable* pairs_;
    DataTable* cpus_;
};

} // namespace hitmap::gui
