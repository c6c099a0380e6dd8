#include "gui/views/heat_bar_delegate.hpp"

#include "gui/models/table_model.hpp"

#include <QPainter>
#include <algorithm>

namespace hitmap::gui {

QColor heat_color(double fraction) {
    const double t = std::clamp(fraction, 0.0, 1.0);
    const QColor cold(250, 250, 245), mid(253, 200, 60), hot(211, 47, 47);
    const QColor& a = t < 0.5 ? cold : mid;
    const QColor& b = t < 0.5 ? mid : hot;
    const double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * u),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * u),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * u));
}

void HeatBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const {
    const QVariant heat = index.data(HeatRole);
    if (heat.isValid() && heat.toDouble() > 0) {
        QRectF bar = QRectF(option.rect).adjusted(1, 2, -1, -2);
        bar.setWidth(bar.width() * heat.toDouble());
        QColor c = heat_color(0.25 + 0.75 * heat.toDouble());
        c.setAlpha(150);
        painter->fillRect(bar, c);
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace hitmap::gui
