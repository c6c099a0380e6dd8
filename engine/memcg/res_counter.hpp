#pragma once
// The 2009 resource counter (kernel/res_counter.c, v2.6.31; reference/memcg.md §3): byte
// counters guarded by one spinlock per level, charged and uncharged level by level from the
// counter to the root. Every ResCounter's lock belongs to the one class lockdep would give it,
// "&counter->lock", which the caller owns and passes in.
//
// A probed struct res_counter (layout res_counter v2.6.31): the counters are its fields, and
// the lock word at +32 shares their line, so a charge's lock traffic and its counter traffic
// land on one cacheline as they did. The lock itself is an InstrumentedLock (for lock_stat)
// bound to that word, so its accesses are recorded as accesses to the field.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/locks/instrumented_lock.hpp"
#include "engine/probe/probed_object.hpp"

#include <cstdint>
#include <limits>
#include <variant>

namespace hitmap::engine {

inline constexpr std::uint64_t kResCounterMax = std::numeric_limits<std::uint64_t>::max();
inline constexpr const char* kResCounterLockClass = "&counter->lock";

// The spinlock algorithm: 2.6.31 x86 used ticket locks; test-and-test-and-set for comparison.
enum class SpinlockKind { ticket, test_and_set };

class ResCounter : public ProbedObject {
public:
    ResCounter(ObjectRegistry& registry, std::string name, LockClass& lock_class,
               ResCounter* parent, std::uint64_t limit = kResCounterMax,
               SpinlockKind lock = SpinlockKind::ticket);

    // res_counter_charge(): true if every level took `bytes`; otherwise no level keeps them,
    // the refusing level's failcnt is raised and *limit_fail_at (if given) names it.
    bool charge(std::uint64_t bytes, ResCounter** limit_fail_at = nullptr);
    // res_counter_uncharge(): every level gives back `bytes`, clamping at 0.
    void uncharge(std::uint64_t bytes);

    // Plain reads: call them when no thread is charging.
    std::uint64_t usage() const { return peek(rc::usage); }
    std::uint64_t max_usage() const { return peek(rc::max_usage); }
    std::uint64_t limit() const { return peek(rc::limit); }
    std::uint64_t failcnt() const { return peek(rc::failcnt); }
    ResCounter* parent() const { return parent_; }

private:
    void lock(Site site, std::source_location where);
    void unlock(Site site);
    bool charge_locked(std::uint64_t bytes);
    void uncharge_locked(std::uint64_t bytes);

    std::variant<TicketSpinlock, Spinlock> lock_;
    ResCounter* parent_;
};

} // namespace hitmap::engine
