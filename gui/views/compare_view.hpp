#pragma once
// Two runs side by side (default: same workload, threads and source, two variants): the hottest
// object's lines as strips on one colour scale, per-field HITM/1k bars before vs after,
// throughput, and predicted vs measured transfers when a prediction of `after` is stored; and
// the two runs' lock classes side by side (contentions, total wait) in their own tab. Everything
// shown is of the pair the selectors name: a change of either clears the view until that pair's
// data arrives, and data of any other pair is dropped. A pair of different sources is shown
// with a warning.
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
    // Shows `data` when it is of the selected pair; false (and nothing changes) otherwise.
    bool setData(std::shared_ptr<const CompareData> data);
    QString summaryText() const;
    QString predictionText() const;
    // The chosen pair (before, after), when both are chosen.
    std::optional<std::pair<qint64, qint64>> pair() const;

    QComboBox* beforePicker() const { return before_; }
    QComboBox* afterPicker() const { return after_; }
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
    // Asks for the pair the selectors name and shows nothing of any other meanwhile.
    void requestCurrent();
    // Empties the chart, strips, tables and hint: what they showed was another pair's.
    void clearShown(const QString& summary);
    // Fills the lock tab (empties it for null); true when either run has lock statistics.
    bool showLocks(const CompareData* data);

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
