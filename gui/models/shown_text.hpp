#pragma once
// Text from a database as the app shows it. Its names are anyone's to choose (a plugin
// registers its variants, an import keeps its file's name, a note can be any length), and Qt
// sizes widgets to their text and lays the whole text out again on every paint: a 10 KB variant
// widened the main window to 71,759 pixels, and every grab, backing store and PNG with it (a
// 40 KB one took `hitmap --screenshot` 54 s and 3.6 GB). So a widget shows a bounded number of
// characters, the middle elided (a name's distinguishing end stays), and its tooltip the text
// whole, wrapped, up to kTooltipChars.
#include <QString>
#include <string>

namespace hitmap::gui {

// A name (workload, variant, struct, field, lock class, file) in a label, cell or legend.
inline constexpr qsizetype kNameChars = 80;
// A sentence (a note, a reason) in a label that wraps.
inline constexpr qsizetype kSentenceChars = 400;
// A tooltip: about 25 wrapped lines; a megabyte in one would be a window of hundreds of MB.
inline constexpr qsizetype kTooltipChars = 2000;

// `text` when it has at most `limit` characters, else its head and tail around "…", cut
// between graphemes. Costs the same for a megabyte as for a line.
QString shown_text(const QString& text, qsizetype limit = kNameChars);
// The same of UTF-8 text, converting only its ends.
QString shown_text(const std::string& utf8, qsizetype limit = kNameChars);

// Rich text for a tooltip, escaped and wrapping: `text` whole up to kTooltipChars, else
// elided and followed by its length.
QString tooltip_text(const QString& text);
// tooltip_text(text) where shown_text(text, limit) elides it, else empty (no tooltip).
QString elided_tooltip(const QString& text, qsizetype limit = kNameChars);

} // namespace hitmap::gui
