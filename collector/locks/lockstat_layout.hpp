#pragma once
// The /proc/lock_stat columns and the kernel's print widths (kernel/locking/lockdep_proc.c:
// seq_header, seq_stats, seq_lock_time, snprint_time).
#include "collector/locks/lock_stats.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace hitmap::locks {

enum class LockstatColumn {
    class_name,
    con_bounces,
    contentions,
    waittime_min,
    waittime_max,
    waittime_total,
    waittime_avg,
    acq_bounces,
    acquisitions,
    holdtime_min,
    holdtime_max,
    holdtime_total,
    holdtime_avg,
};

std::string_view title(LockstatColumn column);
std::optional<LockstatColumn> column_titled(std::string_view title);
bool is_time_column(LockstatColumn column);

// The numeric columns of each version: 0.4 = 0.3 + waittime-avg and holdtime-avg.
const std::vector<LockstatColumn>& v03_columns();
const std::vector<LockstatColumn>& v04_columns();

// Where a row keeps a time column's value (ns) and a count column's.
std::optional<std::int64_t>& time_slot(LockCounters& c, LockstatColumn column);
std::optional<std::uint64_t>& count_slot(LockCounters& c, LockstatColumn column);

// seq_lock_time's average: nr ? total / nr : 0.
std::int64_t lockdep_average(std::int64_t total_ns, std::uint64_t count);

inline constexpr int kNameWidth = 40;    // "%40s:" (or "%38s-W:") and the point lines' "%40s"
inline constexpr int kColumnWidth = 14;  // every numeric column
inline constexpr int kAddressWidth = 29; // "%29s" of "[<%p>]" on point lines
inline constexpr int kV04LineLength = kNameWidth + 1 + 12 * (kColumnWidth + 1); // 221

} // namespace hitmap::locks
