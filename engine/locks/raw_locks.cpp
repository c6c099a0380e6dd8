#include "engine/locks/raw_locks.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hitmap::engine {

namespace {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
    // EAGAIN (the word changed) and EINTR both mean "look again", which the caller does.
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected,
            nullptr, nullptr, 0);
}

void futex_wake_one(std::atomic<std::uint32_t>& word) {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr,
            nullptr, 0);
}

} // namespace

void RawFutexMutex::lock_contended_futex() {
    // Whoever takes the lock from here on marks it 2: we cannot know whether others sleep.
    while (state_.exchange(2, std::memory_order_acquire) != 0)
        futex_wait(state_, 2);
}

void RawFutexMutex::unlock_futex() {
    if (state_.fetch_sub(1, std::memory_order_release) != 1) {
        state_.store(0, std::memory_order_release);
        futex_wake_one(state_);
    }
}

} // namespace hitmap::engine
