#pragma once
// The kernel's lock-wait tracepoints, lock:contention_begin and lock:contention_end (Linux
// 5.19+, reference/lockstat.md §3.2), as perf samples: decoding the ring records and pairing
// begin with end per thread into per-lock statistics, as `perf lock contention -l` does. Pure,
// so it is tested with synthetic records.
#include "collector/perf/tracepoint_format.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hitmap::perf {

// What the lock samples carry: TID, TIME, CPU and the tracepoint's RAW payload.
std::uint64_t lock_sample_type();

struct LockEvent {
    enum class Kind { begin, end };
    Kind kind = Kind::begin;
    std::uint32_t tid = 0;
    std::uint64_t time_ns = 0;
    std::uint32_t cpu = 0;
    std::uint64_t lock_addr = 0;
    std::uint32_t flags = 0; // begin: LCB_F_* bits
    std::int32_t ret = 0;    // end: 0 when the lock was taken, else the error of an aborted wait
};

struct LockEventBatch {
    std::vector<LockEvent> events;
    std::uint64_t lost_samples = 0;
};

// Decodes the records in ring positions [tail, head); samples of other tracepoints are
// skipped. Throws PerfCorruptRecord for a record that does not fit.
LockEventBatch parse_lock_events(std::span<const std::byte> ring, std::uint64_t tail,
                                 std::uint64_t head, const TracepointFormat& begin,
                                 const TracepointFormat& end);

// Throws PerfInvalidConfig when a format lacks a field parse_lock_events reads: libtraceevent
// keeps a format whose field block it could read only in part, and a missing flags or ret
// would otherwise decode as 0.
void check_lock_formats(const TracepointFormat& begin, const TracepointFormat& end);

// perf's lock_type_table names for the LCB_F_* flags: "spinlock", "rwsem:R", "mutex", ...
std::string lock_type_name(std::uint32_t flags);

struct KernelLockStat {
    std::uint64_t lock_addr = 0;
    std::uint32_t flags = 0; // of the first wait seen
    std::uint64_t contentions = 0;
    std::uint64_t wait_total_ns = 0;
    std::uint64_t wait_min_ns = 0;
    std::uint64_t wait_max_ns = 0;
    std::uint64_t aborted = 0; // waits that ended with ret != 0
};

struct KernelLockSummary {
    std::vector<KernelLockStat> locks; // by total wait, descending
    // An end without a begin of the same lock on that thread (e.g. tracing started mid-wait):
    // not counted as a wait, as perf counts it "bad".
    std::uint64_t unpaired = 0;
    std::uint64_t lost_samples = 0;
};

// Pairs begin/end per thread in time order. A second begin while a thread already waits (a
// mutex that spun, then sleeps) keeps the first timestamp, as perf does.
KernelLockSummary summarize_lock_events(std::vector<LockEvent> events);

} // namespace hitmap::perf
