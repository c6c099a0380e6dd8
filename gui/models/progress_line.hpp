#pragma once
// The GUI's side of `hitmap-collect --progress=json` (collector/run/progress.hpp): one JSON
// object per line on the collector's stderr. Parsed here, not in the run dialog, so the
// protocol is tested against the collector's own writer.
#include <QByteArray>
#include <QString>
#include <optional>

namespace hitmap::gui {

struct ProgressLine {
    QString event; // "begin", "progress" or "end"
    int index = 0; // of the run, 0-based
    int total = 1; // runs planned
    double fraction = 0;
    QString label;   // begin: "page-counter-charge v6.0 x2 #7"
    QString summary; // end: "1234 ops/s" or the error
    bool ok = true;  // end: the run completed

    // Overall progress 0..1: the runs before this one, plus this one's fraction (1 at end).
    double overall() const;
};

// nullopt for a line that is no progress object (the CLI's own error message, say).
std::optional<ProgressLine> parse_progress_line(const QByteArray& line);

} // namespace hitmap::gui
