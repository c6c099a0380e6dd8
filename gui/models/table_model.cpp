#include "gui/models/table_model.hpp"

#include "gui/models/shown_text.hpp"

namespace hitmap::gui {

void TableModel::reset(int rows, std::vector<ErasedColumn> columns) {
    beginResetModel();
    rows_ = rows;
    columns_ = std::move(columns);
    endResetModel();
}

void TableModel::clear() {
    reset(0, {});
}

int TableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows_;
}

int TableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ErasedColumn& c = columns_[static_cast<std::size_t>(index.column())];
    if (role == HeatRole) {
        if (!c.heat || c.max <= 0)
            return {};
        // Below zero is how a column sorts an absent value last: no bar.
        return std::max(0.0, c.data(index.row(), SortRole).toDouble()) / c.max;
    }
    if (role == Qt::TextAlignmentRole) {
        const QVariant raw = c.data(index.row(), SortRole);
        const bool number = raw.typeId() != QMetaType::QString;
        return QVariant::fromValue(
            Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    // Names are anyone's, of any length: a cell shows them bounded, the tooltip whole.
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        const QVariant text = c.data(index.row(), Qt::DisplayRole);
        if (text.typeId() == QMetaType::QString && text.toString().size() > kNameChars) {
            if (role == Qt::DisplayRole)
                return shown_text(text.toString());
            const QVariant own = c.data(index.row(), Qt::ToolTipRole);
            return own.isValid() ? own : QVariant(tooltip_text(text.toString()));
        }
    }
    return c.data(index.row(), role);
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= columnCount())
        return {};
    return columns_[static_cast<std::size_t>(section)].title;
}

} // namespace hitmap::gui
