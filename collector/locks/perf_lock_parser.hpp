#pragma once
// perf lock output -> tables: `perf lock contention` as a table (by caller, -t task, -o owner,
// -l lock address, --lock-cgroup) or as CSV (-x SEP), with -v call stacks and the debug footer;
// and `perf lock report` (raw "(ns)" columns or times with units, -t, -c, -F subsets).
//
// Times become nanoseconds ("1.23 us" -> 1230). perf has no bounces, hold times or lock_stat
// call-site lists, so those stay absent. Prose around the tables (command lines, perf's own
// messages) is skipped; a line inside a table that cannot be parsed throws LockParseError.
#include "collector/locks/lock_stats.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace hitmap::locks {

// One report per perf output, in text order; empty when the text holds no perf lock table.
std::vector<LockStatReport> parse_perf_lock(std::string_view text);
// The same, table by table and row by row into `sink`; on a throw, the sink has seen the rows
// before the bad line.
void parse_perf_lock(std::string_view text, LockTableSink& sink);

// The format whose header this line is (contention table or CSV, report), or nullopt.
std::optional<LockFormat> perf_lock_line_format(std::string_view line);

} // namespace hitmap::locks
