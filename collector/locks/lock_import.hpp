#pragma once
// Which lock-statistics text a file holds, and the one entry point an importer calls.
#include "collector/locks/lock_stats.hpp"

#include <string_view>
#include <vector>

namespace hitmap::locks {

// Decided by the first line that identifies a format: a lock_stat version, header or complete
// row; a perf lock header; mutrace's or illumos lockstat's own lines. Quoting, wrapping and
// listing numbers are looked through as the parsers do.
LockFormat detect_format(std::string_view text);

// check_text, detect_format, then the matching parser. Throws UnsupportedLockFormat for mutrace
// and illumos lockstat output and for text without a lock table, LockParseError for a bad line.
// A text with both lock_stat and perf tables is parsed as the format found first.
std::vector<LockStatReport> parse_lock_text(std::string_view text);
// The same into `sink` (perf lock text row by row; lock_stat text a table at a time). Throws
// after the sink has seen part of the text, so a sink that stores must be able to drop it all.
void parse_lock_text(std::string_view text, LockTableSink& sink);

// Refuses text a lock table cannot be in, and whose names would be garbage on a terminal or in
// JSON: UTF-16 (LockTextEncodingError), invalid UTF-8 or a control character other than a tab
// (ESC, NUL, a CR inside a line...) on a line (LockParseError with that line).
void check_text(std::string_view text);

} // namespace hitmap::locks
