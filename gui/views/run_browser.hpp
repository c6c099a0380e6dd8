#pragma once
// The run tree (workload -> variant -> runs); picking a run row announces its id.
#include <QWidget>

class QTreeView;

namespace hitmap::gui {

class RunTreeModel;

class RunBrowser : public QWidget {
    Q_OBJECT
public:
    explicit RunBrowser(QWidget* parent = nullptr);
    RunTreeModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    void selectRun(qint64 run_id);

signals:
    void runSelected(qint64 run_id);

private:
    RunTreeModel* model_;
    QTreeView* view_;
};

} // namespace hitmap::gui
