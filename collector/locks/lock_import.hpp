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

// detect_format, then the matching parser. Throws UnsupportedLockFormat for mutrace and illumos
// lockstat output and for text without a lock table, LockParseError for a bad line. A text
// with both lock_stat and perf tables is parsed as the format found first.
std::vector<LockStatReport> parse_lock_text(std::string_view text);

} // namespace hitmap::locks
