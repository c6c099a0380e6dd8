#pragma once
// ops/s against threads per variant for one workload, spread across repeats as a band.
#include "collector/store/records.hpp"

#include <QWidget>
#include <vector>

class QChartView;
class QComboBox;

namespace hitmap::gui {

class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(QWidget* parent = nullptr);
    void setRuns(std::vector<store::RunRecord> runs);
    // Follows the selected run: its workload's curves. False when no run of it is listed.
    bool showWorkload(const QString& workload);
    QString workload() const;
    QChartView* chartView() const { return view_; }

private:
    void rebuild();

    std::vector<store::RunRecord> runs_;
    QComboBox* workload_;
    QChartView* view_;
};

} // namespace hitmap::gui
