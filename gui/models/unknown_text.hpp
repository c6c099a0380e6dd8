#pragma once
// The GUI's side of "unknown is not zero": absent values show as "–" and sort as nothing.
#include "collector/report/unknown.hpp"

#include <QString>
#include <QVariant>
#include <optional>

namespace hitmap::gui {

inline QString unknown_qtext() {
    return QString::fromUtf8(report::unknown_text.data(),
                             static_cast<qsizetype>(report::unknown_text.size()));
}

// `format` turns a known value into text; an unknown one is "–".
template <class T, class F> QString text_or_unknown(const std::optional<T>& value, F&& format) {
    return value ? format(*value) : unknown_qtext();
}

// A sortable value, or an invalid QVariant that the views show as "–".
template <class T> QVariant variant_or_unknown(const std::optional<T>& value) {
    return value ? QVariant::fromValue(*value) : QVariant();
}

} // namespace hitmap::gui
