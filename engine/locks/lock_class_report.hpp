#pragma once
// What the engine's instrumented locks report at the end of a run: one value per lock class,
// the per-slot statistics merged, in lockdep's terms (reference/lockstat.md §2). Plain values:
// the collector turns them into lock_stat rows (collector/locks) and stores them.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hitmap::engine {

// lockdep's struct lock_time: min/max/total over `count` intervals, nanoseconds.
struct LockTimeStat {
    std::uint64_t count = 0;
    std::uint64_t min_ns = 0; // 0 when count == 0
    std::uint64_t max_ns = 0;
    std::uint64_t total_ns = 0;

    bool operator==(const LockTimeStat&) const = default;
};

// A call site where a waiter waited (contention point) or where the holder had taken the lock
// (contending point), and how often. `function` and `location` ("engine/memcg/res_counter.cpp:57")
// come from std::source_location at the lock() call.
struct LockSiteCount {
    std::string function;
    std::string location;
    std::uint64_t count = 0;

    bool operator==(const LockSiteCount&) const = default;
};

struct LockClassReport {
    std::string name;              // lock class, e.g. "&counter->lock"
    std::string kind;              // "spinlock" or "mutex"
    std::uint64_t con_bounces = 0; // contentions where the lock was last held on another CPU
    std::uint64_t contentions = 0; // acquisitions whose first attempt failed
    LockTimeStat wait;             // count == contentions
    std::uint64_t acq_bounces = 0; // acquisitions where the lock was last held on another CPU
    std::uint64_t acquisitions = 0;
    LockTimeStat hold;                            // count == acquisitions
    std::vector<LockSiteCount> contention_points; // at most 4: the first four sites seen
    std::vector<LockSiteCount> contending_points; // at most 4
    // log2 wait-time histogram: bucket i counts waits in [2^i, 2^(i+1)) ns, bucket 0 also 0 ns
    // (the same buckets as collector/locks/wait_histogram.hpp).
    std::array<std::uint64_t, 64> wait_log2_ns{};

    bool operator==(const LockClassReport&) const = default;
};

} // namespace hitmap::engine
