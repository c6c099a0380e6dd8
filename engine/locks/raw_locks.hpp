#pragma once
// The bare lock algorithms, without statistics. Each offers try_lock() (the fast path whose
// failure lockdep calls a contention), lock_contended() (the slow path after that failure) and
// unlock(). InstrumentedLock wraps them.
//
// Every method takes a word-access policy W: NativeWordAccess (the default) adds nothing;
// under simulation the policy announces each access to the lock word before it is made (a
// scheduling point with a coherence cost) and turns a spin iteration into a sleep until the
// word's line is written, so the simulated lock runs the same algorithm on virtual CPUs.
#include "engine/probe/trace_record.hpp"

#include <atomic>
#include <cstdint>
#include <type_traits>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace hitmap::engine {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

struct NativeWordAccess {
    void announce(AccessKind) const {}
    void relax() const { cpu_relax(); }
};

// Test-and-test-and-set: waiters spin on a plain load so the line stays shared until release.
class RawSpinlock {
public:
    template <class W = NativeWordAccess> bool try_lock(const W& w = {}) {
        w.announce(AccessKind::rmw);
        return !locked_.exchange(true, std::memory_order_acquire);
    }
    template <class W = NativeWordAccess> void lock_contended(const W& w = {}) {
        do {
            while ((w.announce(AccessKind::load), locked_.load(std::memory_order_relaxed)))
                w.relax();
        } while (!try_lock(w));
    }
    template <class W = NativeWordAccess> void unlock(const W& w = {}) {
        w.announce(AccessKind::store);
        locked_.store(false, std::memory_order_release);
    }

private:
    std::atomic<bool> locked_{false};
};

// The x86 ticket spinlock of 2.6.25-3.x (arch/x86/include/asm/spinlock.h): a waiter takes the
// next ticket and spins until the owner count reaches it, so the lock is handed over in FIFO
// order and every release is seen by every waiter (each re-reads the line), where a
// test-and-set lock lets whichever CPU gets the line first win.
class RawTicketSpinlock {
public:
    template <class W = NativeWordAccess> bool try_lock(const W& w = {}) {
        w.announce(AccessKind::load);
        std::uint32_t word = word_.load(std::memory_order_relaxed);
        if ((word & 0xffff) != (word >> 16))
            return false; // held, or waiters queued
        w.announce(AccessKind::cas);
        return word_.compare_exchange_strong(word, word + (1u << 16), std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }
    template <class W = NativeWordAccess> void lock_contended(const W& w = {}) {
        w.announce(AccessKind::rmw);
        const std::uint32_t ticket = word_.fetch_add(1u << 16, std::memory_order_relaxed) >> 16;
        while ((w.announce(AccessKind::load),
                (word_.load(std::memory_order_acquire) & 0xffff) != (ticket & 0xffff)))
            w.relax();
    }
    // The owner half (low 16 bits) moves on; a carry out of it must not reach the ticket half.
    // 2.6.31 releases with a plain incb of the owner byte: a store to the word.
    template <class W = NativeWordAccess> void unlock(const W& w = {}) {
        w.announce(AccessKind::store);
        std::uint32_t word = word_.load(std::memory_order_relaxed);
        while (!word_.compare_exchange_weak(word, (word & 0xffff0000u) | ((word + 1) & 0xffff),
                                            std::memory_order_release, std::memory_order_relaxed))
            ;
    }

private:
    std::atomic<std::uint32_t> word_{0}; // next ticket << 16 | owner
};

// Drepper's three-state futex mutex ("Futexes Are Tricky", mutex 2): 0 free, 1 locked,
// 2 locked with possible sleepers, so an uncontended unlock makes no system call. A simulated
// waiter cannot sleep in the host kernel (every virtual CPU is one host thread): it waits for
// the word to change instead, as a spinning waiter does.
class RawFutexMutex {
public:
    template <class W = NativeWordAccess> bool try_lock(const W& w = {}) {
        w.announce(AccessKind::cas);
        std::uint32_t expected = 0;
        return state_.compare_exchange_strong(expected, 1, std::memory_order_acquire,
                                              std::memory_order_relaxed);
    }
    template <class W = NativeWordAccess> void lock_contended(const W& w = {}) {
        if constexpr (std::is_same_v<W, NativeWordAccess>) {
            lock_contended_futex();
        } else {
            do
                w.relax();
            while (!try_lock(w));
        }
    }
    template <class W = NativeWordAccess> void unlock(const W& w = {}) {
        if constexpr (std::is_same_v<W, NativeWordAccess>) {
            unlock_futex();
        } else {
            w.announce(AccessKind::store);
            state_.store(0, std::memory_order_release);
        }
    }

private:
    void lock_contended_futex();
    void unlock_futex();

    std::atomic<std::uint32_t> state_{0};
};

} // namespace hitmap::engine
