#pragma once
// A report printed as /proc/lock_stat version 0.4, byte for byte in the kernel's widths
// (kernel/locking/lockdep_proc.c): version line, optional lockdep warning, 221-dash rules around
// the "%40s" + 12 x " %14s" header, then the classes sorted by contentions, descending (ties keep
// their order; the kernel's sort is unstable there).
//
// What is printed follows what the structs hold, which for parsed reports is what the kernel
// printed: a side's row when it is present ("name:" for write only, "-W"/"-R" when both), point
// lists when present, the dotted separator after a non-empty contending list. Absent values
// print as 0 or 0.00 (lock_stat has no notation for "unknown"); an absent average prints the
// kernel's total / count. Names are not cut to the kernel's 37 characters, so a longer name
// widens its row instead of losing characters.
//
// parse_lock_stat(format_lock_stat_v04(r)) gives back r's classes when every lock_stat field is
// present, times are multiples of 10 ns (the printed resolution), name_version and subclass
// agree with the name's suffixes, a bare name does not itself end in "-W" or "-R", and a class
// with contending points has contention points (the kernel records both at each contention; a
// lone contending list would read back as contention points).
#include "collector/locks/lock_stats.hpp"

#include <cstdint>
#include <string>

namespace hitmap::locks {

std::string format_lock_stat_v04(const LockStatReport& report);

// The same text in pieces, for a table read a class at a time: the header, then each class in
// the order above (contentions descending, ties in table order).
std::string format_lock_stat_v04_header(bool lockdep_disabled);
std::string format_lock_stat_v04_class(const LockClassStats& stats);

// snprint_time: nanoseconds as "%lld.%02d" microseconds, rounded to 10 ns ("0.06", "0.-32").
std::string format_lockstat_time(std::int64_t ns);

} // namespace hitmap::locks
