#pragma once
// Which statistics slot the calling thread writes. A workload's worker installs its slot with a
// LockSlotScope (as it installs its trace buffer with ThreadTraceScope); one thread per slot, so
// the counters need no atomics and cannot create the contention they measure. A thread without
// a slot (setup code, a test's main thread) still works: it writes the class's overflow slot,
// which a mutex guards, so it is correct but not cheap.
#include <limits>

namespace hitmap::engine {

inline constexpr unsigned kNoLockSlot = std::numeric_limits<unsigned>::max();

namespace detail {
inline thread_local unsigned t_lock_slot = kNoLockSlot;
}

inline unsigned current_lock_slot() {
    return detail::t_lock_slot;
}

// A fiber scheduler runs many slots on one host thread: it sets each context's slot as it
// resumes it.
inline void set_current_lock_slot(unsigned slot) {
    detail::t_lock_slot = slot;
}

class LockSlotScope {
public:
    explicit LockSlotScope(unsigned slot)
        : previous_(detail::t_lock_slot) {
        detail::t_lock_slot = slot;
    }
    ~LockSlotScope() { detail::t_lock_slot = previous_; }
    LockSlotScope(const LockSlotScope&) = delete;
    LockSlotScope& operator=(const LockSlotScope&) = delete;

private:
    unsigned previous_; // restored on exit, so scopes nest
};

} // namespace hitmap::engine
