#pragma once
// The bare lock algorithms, without statistics. Each offers try_lock() (the fast path whose
// failure lockdep calls a contention), lock_contended() (the slow path after that failure) and
// unlock(). InstrumentedLock wraps them.
#include <atomic>
#include <cstdint>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace hitmap::engine {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

// Test-and-test-and-set: waiters spin on a plain load so the line stays shared until release.
class RawSpinlock {
public:
    bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
    void lock_contended() {
        do {
            while (locked_.load(std::memory_order_relaxed))
                cpu_relax();
        } while (!try_lock());
    }
    void unlock() { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
};

// The x86 ticket spinlock of 2.6.25-3.x (arch/x86/include/asm/spinlock.h): a waiter takes the
// next ticket and spins until the owner count reaches it, so the lock is handed over in FIFO
// order and every release is seen by every waiter (each re-reads the line), where a
// test-and-set lock lets whichever CPU gets the line first win.
class RawTicketSpinlock {
public:
    bool try_lock() {
        std::uint32_t word = word_.load(std::memory_order_relaxed);
        if ((word & 0xffff) != (word >> 16))
            return false; // held, or waiters queued
        return word_.compare_exchange_strong(word, word + (1u << 16), std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }
    void lock_contended() {
        const std::uint32_t ticket = word_.fetch_add(1u << 16, std::memory_order_relaxed) >> 16;
        while ((word_.load(std::memory_order_acquire) & 0xffff) != (ticket & 0xffff))
            cpu_relax();
    }
    // The owner half (low 16 bits) moves on; a carry out of it must not reach the ticket half.
    void unlock() {
        std::uint32_t word = word_.load(std::memory_order_relaxed);
        while (!word_.compare_exchange_weak(word, (word & 0xffff0000u) | ((word + 1) & 0xffff),
                                            std::memory_order_release, std::memory_order_relaxed))
            ;
    }

private:
    std::atomic<std::uint32_t> word_{0}; // next ticket << 16 | owner
};

// Drepper's three-state futex mutex ("Futexes Are Tricky", mutex 2): 0 free, 1 locked,
// 2 locked with possible sleepers, so an uncontended unlock makes no system call.
class RawFutexMutex {
public:
    bool try_lock() {
        std::uint32_t expected = 0;
        return state_.compare_exchange_strong(expected, 1, std::memory_order_acquire,
                                              std::memory_order_relaxed);
    }
    void lock_contended();
    void unlock();

private:
    std::atomic<std::uint32_t> state_{0};
};

} // namespace hitmap::engine
