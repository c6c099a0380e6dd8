#pragma once
// One table model for every table in the app: rows are plain structs, columns are descriptors
// (title, raw value, optional text/tooltip, heat bar). Views sort on the raw value and paint
// heat bars from HeatRole, so formatting never gets in the way of ordering.
#include <QAbstractTableModel>
#include <QString>
#include <QVariant>
#include <functional>
#include <memory>
#include <vector>

namespace hitmap::gui {

enum TableRole {
    SortRole = Qt::UserRole + 1, // the raw value (number or text)
    HeatRole,                    // 0..1 of the column's largest value; only for heat columns
};

template <class Row> struct Column {
    QString title;
    std::function<QVariant(const Row&)> value;    // raw value: sorting, and text by default
    std::function<QString(const Row&)> text{};    // formatted text, when raw is not readable
    std::function<QString(const Row&)> tooltip{}; // hover text
    bool heat = false;                            // paint a bar scaled to the column max
};

class TableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    template <class Row>
    void setRows(std::vector<Row> rows, const std::vector<Column<Row>>& columns);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // A column with its row type erased: the rows live in the closures' shared storage.
    struct ErasedColumn {
        QString title;
        std::function<QVariant(int row, int role)> data;
        bool heat = false;
        double max = 0; // largest raw value, the heat bar's full width
    };
    void reset(int rows, std::vector<ErasedColumn> columns);

    int rows_ = 0;
    std::vector<ErasedColumn> columns_;
};

template <class Row>
void TableModel::setRows(std::vector<Row> rows, const std::vector<Column<Row>>& columns) {
    auto shared = std::make_shared<const std::vector<Row>>(std::move(rows));
    std::vector<ErasedColumn> erased;
    for (const Column<Row>& c : columns) {
        ErasedColumn e{c.title,
                       [shared, c](int row, int role) -> QVariant {
                           const Row& r = (*shared)[static_cast<std::size_t>(row)];
                           switch (role) {
                           case Qt::DisplayRole:
                               return c.text ? QVariant(c.text(r)) : c.value(r);
                           case SortRole:
                               return c.value(r);
                           case Qt::ToolTipRole:
                               return c.tooltip ? QVariant(c.tooltip(r)) : QVariant();
                           default:
                               return {};
                           }
                       },
                       c.heat};
        if (c.heat)
            for (const Row& r : *shared)
                e.max = std::max(e.max, c.value(r).toDouble());
        erased.push_back(std::move(e));
    }
    reset(static_cast<int>(shared->size()), std::move(erased));
}

} // namespace hitmap::gui
