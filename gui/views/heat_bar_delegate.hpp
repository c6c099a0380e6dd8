#pragma once
// Paints a cell's HeatRole (0..1 of the column maximum) as a bar behind its text, the way
// Hotspot's cost columns show where the weight is at a glance.
#include <QStyledItemDelegate>

namespace hitmap::gui {

class HeatBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

// White -> amber -> red for 0..1: the strip and the bars share this scale.
QColor heat_color(double fraction);

} // namespace hitmap::gui
