#pragma once
// Two runs side by side (default: same workload and threads, two variants): the hottest
// object's lines as strips on one colour scale, per-field HITM/1k bars before vs after,
// throughput, and predicted vs measured transfers when a prediction of `after` is stored; and
// the two runs' lock classes side by side (contentions, total wait) in their own tab.
#include "collector/store/records.hpp"

#include <QWidget>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QChartView;
class QComboBox;
class QLabel;
class QTabWidget;

namespace hitmap::analysis {
struct CompareData;
}

namespace hitmap::gui {

class DataTable;
class StripGrid;
class StripWidget;
using analysis::CompareData;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    void setRuns(const std::vector<store::RunRecord>& runs);
    // Picks the pair and requests it.
    void setPair(qint64 before, qint64 after);
    void setData(std::shared_ptr<const CompareData> data);
    // The chosen pair (before, after), when both are chosen.
    std::optional<std::pair<qint64, qint64>> pair() const;

    QChartView* chartView() const { return chart_view_; }
    const std::vector<StripWidget*>& strips() const;
    DataTable* predictions() const { return predictions_; }
    DataTable* lockClasses() const { return lock_classes_; }
    QChartView* lockChartView() const { return lock_chart_; }
    StripGrid* stripGrid() const { return strips_; }
    QTabWidget* sections() const { return sections_; }

signals:
    void compareRequested(qint64 before, qint64 after);

private:
    void requestCurrent();
    // Fills the lock tab; true when either run has lock statistics.
    bool showLocks(const CompareData& data);

    QComboBox* before_;
    QComboBox* after_;
    QLabel* summary_;
    StripGrid* strips_;
    QChartView* chart_view_;
    QLabel* prediction_summary_;
    DataTable* predictions_;
    QTabWidget* sections_;
    DataTable* lock_classes_;
    QChartView* lock_chart_;
};

} // namespace hitmap::gui
