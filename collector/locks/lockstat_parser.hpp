#pragma once
// /proc/lock_stat text, versions 0.3 and 0.4, as read from the file or as pasted into mail and
// documentation: -W/-R rows, contention and contending point lists, names with spaces and "#N"
// or "/N" suffixes, overflowing columns, mail-wrapped or "> "-quoted lines, numbered listings,
// grep'ed rows without the header, several tables in one text.
//
// Prose around the tables (mail text, command lines) is skipped. A line that looks like part of
// a table but cannot be parsed throws LockParseError naming its line; nothing is returned then.
#include "collector/locks/lock_stats.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace hitmap::locks {

// One report per table, in text order; empty when the text holds no lock_stat table.
std::vector<LockStatReport> parse_lock_stat(std::string_view text);

// The lock_stat version a line shows by itself: a version line, a column-title line (0.4 when
// it has an average column) or a complete, valid row (10 columns: 0.3, 12: 0.4); else nullopt.
std::optional<LockFormat> lockstat_line_format(std::string_view line);

} // namespace hitmap::locks
