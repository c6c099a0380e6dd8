#pragma once
// The 2009 resource counter (kernel/res_counter.c, v2.6.31; reference/memcg.md §3): byte
// counters guarded by one spinlock per level, charged and uncharged level by level from the
// counter to the root. Every ResCounter's lock belongs to the one class lockdep would give it,
// "&counter->lock", which the caller owns and passes in.
#include "engine/locks/instrumented_lock.hpp"

#include <cstdint>
#include <limits>

namespace hitmap::engine {

inline constexpr std::uint64_t kResCounterMax = std::numeric_limits<std::uint64_t>::max();
inline constexpr const char* kResCounterLockClass = "&counter->lock";

class ResCounter {
public:
    ResCounter(LockClass& lock_class, ResCounter* parent, std::uint64_t limit = kResCounterMax);
    ResCounter(const ResCounter&) = delete;
    ResCounter& operator=(const ResCounter&) = delete;

    // res_counter_charge(): true if every level took `bytes`; otherwise no level keeps them,
    // the refusing level's failcnt is raised and *limit_fail_at (if given) names it.
    bool charge(std::uint64_t bytes, ResCounter** limit_fail_at = nullptr);
    // res_counter_uncharge(): every level gives back `bytes`, clamping at 0.
    void uncharge(std::uint64_t bytes);

    // Plain reads: call them when no thread is charging.
    std::uint64_t usage() const { return usage_; }
    std::uint64_t max_usage() const { return max_usage_; }
    std::uint64_t limit() const { return limit_; }
    std::uint64_t failcnt() const { return failcnt_; }
    ResCounter* parent() const { return parent_; }

private:
    bool charge_locked(std::uint64_t bytes);
    void uncharge_locked(std::uint64_t bytes);

    // The fields in the kernel's order; lock and counters share a line, as in 2009.
    std::uint64_t usage_ = 0;
    std::uint64_t max_usage_ = 0;
    std::uint64_t limit_;
    std::uint64_t failcnt_ = 0;
    Spinlock lock_;
    ResCounter* parent_;
};

} // namespace hitmap::engine
