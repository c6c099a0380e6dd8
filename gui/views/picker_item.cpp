#include "gui/views/picker_item.hpp"

#include "gui/models/shown_text.hpp"

#include <QComboBox>

namespace hitmap::gui {

void add_picker_item(QComboBox* picker, const QString& text, const QVariant& data) {
    picker->addItem(shown_text(text), data);
    picker->setItemData(picker->count() - 1, tooltip_text(text), Qt::ToolTipRole);
}

} // namespace hitmap::gui
