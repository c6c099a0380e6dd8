#pragma once
// The run tree (workload -> variant -> runs) under a filter box; picking a run row announces
// its id. The filter keeps the rows whose any column holds the text (a workload, a variant,
// "simulated", "run 12"), with their parents, so a database of 230 runs is searchable.
#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace hitmap::gui {

class RunTreeModel;

class RunBrowser : public QWidget {
    Q_OBJECT
public:
    explicit RunBrowser(QWidget* parent = nullptr);
    RunTreeModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    QLineEdit* filter() const { return filter_; }
    void selectRun(qint64 run_id);

signals:
    void runSelected(qint64 run_id);

private:
    RunTreeModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QTreeView* view_;
};

} // namespace hitmap::gui
