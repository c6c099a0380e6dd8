#pragma once
// The Locks tab: a run's lock classes as lock_stat rows (sortable, times in µs), and for the
// selected class its log2 wait-time histogram and its contention / contending call sites; for
// a run without lock statistics, a sentence saying why and where runs with locks are.
#include "gui/models/lock_rows.hpp"

#include <QWidget>
#include <memory>
#include <vector>

class QChartView;
class QLabel;
class QStackedWidget;

namespace hitmap::analysis {
struct RunDetail;
}

namespace hitmap::gui {

class DataTable;
using analysis::RunDetail;

class LocksView : public QWidget {
    Q_OBJECT
public:
    explicit LocksView(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const RunDetail> detail);
    void selectRow(int source_row);

    DataTable* classes() const { return classes_; }
    DataTable* points() const { return points_; }
    QChartView* chartView() const { return histogram_; }
    // True when the run has no lock statistics: a sentence says so instead of an empty table
    // and an empty chart.
    bool showingNoLocks() const;

private:
    void showClass(int source_row);

    QLabel* header_;
    QStackedWidget* pages_; // the tables and chart, or the sentence for a run without locks
    QLabel* no_locks_;
    DataTable* classes_;
    QChartView* histogram_;
    DataTable* points_;
    std::shared_ptr<const RunDetail> run_;
    std::vector<LockRow> rows_;
};

} // namespace hitmap::gui
