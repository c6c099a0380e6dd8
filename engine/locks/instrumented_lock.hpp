#pragma once
// A lock that keeps lock_stat statistics in its LockClass, hooked the way lockdep hooks the
// kernel's locks (reference/lockstat.md §2): a contention is a failed first try_lock; wait runs
// from that failure to the acquisition, hold from the acquisition (or, uncontended, from just
// before the try) to the release; the lock remembers the CPU and call site of its last
// acquirer for the bounce counts and the contending points.
//
// Cost of the uncontended path: two rdtsc (LockClock), one sched_getcpu (glibc's rseq area)
// and the slot updates; see docs/BENCHMARKS.md.
#include "engine/locks/lock_class.hpp"
#include "engine/locks/lock_clock.hpp"
#include "engine/locks/raw_locks.hpp"

#include <sched.h>

namespace hitmap::engine {

template <class Raw> class InstrumentedLock {
public:
    explicit InstrumentedLock(LockClass& lock_class)
        : class_(&lock_class)
        , last_cpu_(sched_getcpu()) {} // as lockdep_init_map: the initialising CPU

    InstrumentedLock(const InstrumentedLock&) = delete;
    InstrumentedLock& operator=(const InstrumentedLock&) = delete;

    void lock(std::source_location site = std::source_location::current()) {
        const LockClock::Ticks before_try = LockClock::now();
        const int cpu = sched_getcpu();
        if (raw_.try_lock()) [[likely]] {
            acquired(cpu, site, before_try);
            return;
        }
        const LockClock::Ticks contended_at = LockClock::now();
        LockContention contention;
        contention.bounce = last_cpu_.load(std::memory_order_relaxed) != cpu;
        contention.waiter = site;
        contention.holder = last_site_.load(std::memory_order_relaxed);
        raw_.lock_contended();
        const LockClock::Ticks acquired_at = LockClock::now();
        contention.wait_ns = LockClock::ns_between(contended_at, acquired_at);
        class_->record_contention(contention);
        acquired(sched_getcpu(), site, acquired_at); // a sleeping waiter may wake elsewhere
    }

    void unlock() {
        class_->record_release(LockClock::ns_between(hold_start_, LockClock::now()));
        raw_.unlock();
    }

private:
    // Runs with the lock held, so the lock's own fields need no more than relaxed atomics
    // (waiters read last_cpu_/last_site_ racily, as lockdep's waiters read lock->cpu/ip).
    void acquired(int cpu, const std::source_location& site, LockClock::Ticks hold_start) {
        class_->record_acquisition(last_cpu_.load(std::memory_order_relaxed) != cpu);
        last_cpu_.store(cpu, std::memory_order_relaxed);
        last_site_.store(site, std::memory_order_relaxed);
        hold_start_ = hold_start;
    }

    Raw raw_;
    LockClass* class_;
    std::atomic<int> last_cpu_;
    static_assert(std::atomic<std::source_location>::is_always_lock_free);
    std::atomic<std::source_location> last_site_{};
    LockClock::Ticks hold_start_ = 0; // only the holder touches it
};

using Spinlock = InstrumentedLock<RawSpinlock>;
using TicketSpinlock = InstrumentedLock<RawTicketSpinlock>;
using Mutex = InstrumentedLock<RawFutexMutex>;

} // namespace hitmap::engine
