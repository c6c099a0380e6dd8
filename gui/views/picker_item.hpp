#pragma once
// An item of a picker (a combo box) whose text comes from a database: shown bounded
// (shown_text.hpp), as long as it may be, and whole on hover.
#include <QString>
#include <QVariant>

class QComboBox;

namespace hitmap::gui {

void add_picker_item(QComboBox* picker, const QString& text, const QVariant& data = {});

} // namespace hitmap::gui
