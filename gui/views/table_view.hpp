#pragma once
// A filterable, sortable table over a TableModel with heat bars: the building block of every
// table view (cachelines, offsets, field pairs, CPUs, predictions).
#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace hitmap::gui {

class TableModel;

class DataTable : public QWidget {
    Q_OBJECT
public:
    explicit DataTable(const QString& filter_hint, QWidget* parent = nullptr);

    TableModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    // Source row of the current selection, -1 when none.
    int currentSourceRow() const;
    void selectSourceRow(int row);
    // Resizes columns to their contents after new rows arrive.
    void fitColumns();

signals:
    void currentSourceRowChanged(int row);

private:
    TableModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QTableView* view_;
};

} // namespace hitmap::gui
