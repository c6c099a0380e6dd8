#pragma once
// A lock that keeps lock_stat statistics in its LockClass, hooked the way lockdep hooks the
// kernel's locks (reference/lockstat.md §2): a contention is a failed first try_lock; wait runs
// from that failure to the acquisition, hold from the acquisition (or, uncontended, from just
// before the try) to the release; the lock remembers the CPU and call site of its last
// acquirer for the bounce counts and the contending points.
//
// A lock may be bound to the probed field that stands for its word in a modelled struct (the
// lock of a struct res_counter at +32). Natively the acquisition and the release are then
// recorded as accesses to that field; under simulation every access of the algorithm to its
// word is one (tries, spins, the release), on virtual CPUs and in virtual nanoseconds.
//
// Cost of the uncontended native path: two rdtsc (LockClock), one sched_getcpu (glibc's rseq
// area) and the slot updates; see docs/BENCHMARKS.md.
#include "engine/locks/lock_class.hpp"
#include "engine/locks/lock_clock.hpp"
#include "engine/locks/raw_locks.hpp"
#include "engine/probe/probed_object.hpp"
#include "engine/runtime/simulation.hpp"

#include <sched.h>

namespace hitmap::engine {

template <class Raw> class InstrumentedLock {
public:
    explicit InstrumentedLock(LockClass& lock_class)
        : class_(&lock_class)
        , last_cpu_(initial_cpu()) {} // as lockdep_init_map: the initialising CPU

    InstrumentedLock(const InstrumentedLock&) = delete;
    InstrumentedLock& operator=(const InstrumentedLock&) = delete;

    // The field of `object` that is this lock's word.
    void bind_word(const ProbedObject& object, FieldId field) {
        word_ = &object;
        word_field_ = field;
    }

    // `site` names the probe site of the word's accesses (the caller's function).
    void lock(Site site, std::source_location where = std::source_location::current()) {
        if (Simulation* sim = current_simulation(); sim && word_) [[unlikely]] {
            lock_with(SimulatedWord{sim, word_, word_field_, site}, SimulatedClock{sim}, where);
            return;
        }
        lock_with(NativeWordAccess{}, NativeClock{}, where);
        if (word_) // the acquiring atomic on the word (a ticket's xadd, a test-and-set's xchg)
            word_->touch(word_field_, AccessKind::rmw, site);
    }
    void lock(std::source_location where = std::source_location::current()) {
        lock(Site::kCount, where);
    }

    void unlock(Site site = Site::kCount) {
        if (Simulation* sim = current_simulation(); sim && word_) [[unlikely]] {
            const SimulatedClock clock{sim};
            class_->record_release(clock.ns_between(hold_start_, clock.now()));
            raw_.unlock(SimulatedWord{sim, word_, word_field_, site});
            return;
        }
        class_->record_release(LockClock::ns_between(hold_start_, LockClock::now()));
        if (word_)
            word_->touch(word_field_, AccessKind::store, site);
        raw_.unlock();
    }

private:
    // A simulation installed around the workload's set-up names a virtual CPU, so the first
    // acquisition's bounce does not depend on where the host ran the set-up.
    static int initial_cpu() {
        const Simulation* sim = current_simulation();
        return sim ? static_cast<int>(sim->cpu()) : sched_getcpu();
    }

    struct NativeClock {
        LockClock::Ticks now() const { return LockClock::now(); }
        std::uint64_t ns_between(LockClock::Ticks start, LockClock::Ticks end) const {
            return LockClock::ns_between(start, end);
        }
        int cpu() const { return sched_getcpu(); }
    };
    // Virtual nanoseconds stand in for ticks: the whole run is simulated or none of it is.
    struct SimulatedClock {
        Simulation* sim;
        LockClock::Ticks now() const { return sim->now_ns(); }
        std::uint64_t ns_between(LockClock::Ticks start, LockClock::Ticks end) const {
            return end > start ? end - start : 0;
        }
        int cpu() const { return static_cast<int>(sim->cpu()); }
    };
    struct SimulatedWord {
        Simulation* sim;
        const ProbedObject* object;
        FieldId field;
        Site site;
        void announce(AccessKind kind) const { object->touch(field, kind, site); }
        void relax() const { object->wait_for_write(*sim, field); }
    };

    template <class Word, class Clock>
    void lock_with(const Word& word, const Clock& clock, const std::source_location& site) {
        const LockClock::Ticks before_try = clock.now();
        const int cpu = clock.cpu();
        if (raw_.try_lock(word)) [[likely]] {
            acquired(cpu, site, before_try);
            return;
        }
        const LockClock::Ticks contended_at = clock.now();
        LockContention contention;
        contention.bounce = last_cpu_.load(std::memory_order_relaxed) != cpu;
        contention.waiter = site;
        contention.holder = last_site_.load(std::memory_order_relaxed);
        raw_.lock_contended(word);
        const LockClock::Ticks acquired_at = clock.now();
        contention.wait_ns = clock.ns_between(contended_at, acquired_at);
        class_->record_contention(contention);
        acquired(clock.cpu(), site, acquired_at); // a sleeping waiter may wake elsewhere
    }

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
    const ProbedObject* word_ = nullptr;
    FieldId word_field_ = 0;
};

using Spinlock = InstrumentedLock<RawSpinlock>;
using TicketSpinlock = InstrumentedLock<RawTicketSpinlock>;
using Mutex = InstrumentedLock<RawFutexMutex>;

} // namespace hitmap::engine
