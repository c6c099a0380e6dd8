#include "gui/models/shown_text.hpp"

#include <QCoreApplication>
#include <QTextBoundaryFinder>
#include <algorithm>

namespace hitmap::gui {

namespace {

// Grapheme rules look a few characters either side (a regional-indicator pair, a ZWJ emoji
// sequence); the finder is given that much around a cut, never the whole text.
constexpr qsizetype kContext = 32;

// The grapheme boundary nearest `pos` in the direction `forward`.
qsizetype grapheme_boundary(const QString& text, qsizetype pos, bool forward) {
    const qsizetype from = std::max<qsizetype>(0, pos - kContext);
    const qsizetype to = std::min(text.size(), pos + kContext);
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text.constData() + from, to - from);
    finder.setPosition(pos - from);
    if (finder.isAtBoundary())
        return pos;
    const qsizetype found = forward ? finder.toNextBoundary() : finder.toPreviousBoundary();
    return found < 0 ? pos : from + found;
}

} // namespace

QString shown_text(const QString& text, qsizetype limit) {
    if (text.size() <= limit)
        return text;
    const qsizetype head = grapheme_boundary(text, (limit - 1) / 2, false);
    const qsizetype tail = grapheme_boundary(text, text.size() - (limit - 1 - head), true);
    return text.left(head) + QChar(0x2026) + text.mid(tail);
}

QString shown_text(const std::string& utf8, qsizetype limit) {
    // A UTF-8 character is at most 4 bytes: each end converted holds more than `limit`
    // characters, and a sequence cut at an end is far from where shown_text cuts.
    const std::size_t end = 4 * static_cast<std::size_t>(limit) + kContext;
    if (utf8.size() <= 2 * end)
        return shown_text(QString::fromStdString(utf8), limit);
    return shown_text(
        QString::fromUtf8(utf8.data(), static_cast<qsizetype>(end)) +
            QString::fromUtf8(utf8.data() + utf8.size() - end, static_cast<qsizetype>(end)),
        limit);
}

QString tooltip_text(const QString& text) {
    QString shown = shown_text(text, kTooltipChars).toHtmlEscaped();
    if (text.size() > kTooltipChars)
        shown += QCoreApplication::translate("hitmap", " (%1 characters)").arg(text.size());
    // A paragraph: Qt wraps a rich-text tooltip at a readable width, a plain one not at all.
    return QStringLiteral("<p>%1</p>").arg(shown);
}

QString elided_tooltip(const QString& text, qsizetype limit) {
    return text.size() > limit ? tooltip_text(text) : QString();
}

} // namespace hitmap::gui
