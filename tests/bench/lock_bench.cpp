// The cost of the lock statistics on the uncontended path: one thread acquiring and releasing
// an instrumented Spinlock/Mutex (with its worker slot, and without one: the overflow slot),
// against a plain std::atomic_flag spinlock and std::mutex. Single thread, so the numbers
// measure the instrumentation and not coherence traffic.
#include "engine/locks/instrumented_lock.hpp"

#include <atomic>
#include <benchmark/benchmark.h>
#include <mutex>

namespace {

using namespace hitmap::engine;

class PlainSpinlock {
public:
    void lock() {
        while (flag_.test_and_set(std::memory_order_acquire))
            while (flag_.test(std::memory_order_relaxed))
                cpu_relax();
    }
    void unlock() { flag_.clear(std::memory_order_release); }

private:
    std::atomic_flag flag_;
};

template <class Lock> void acquire_release(benchmark::State& state, Lock& lock) {
    for (auto _ : state) {
        lock.lock();
        benchmark::ClobberMemory();
        lock.unlock();
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_PlainSpinlock(benchmark::State& state) {
    PlainSpinlock lock;
    acquire_release(state, lock);
}

void BM_PlainStdMutex(benchmark::State& state) {
    std::mutex lock;
    acquire_release(state, lock);
}

template <class Lock> void BM_Instrumented(benchmark::State& state, LockKind kind, bool slotted) {
    LockClass lock_class("&bench->lock", kind, 1);
    LockSlotScope slot(slotted ? 0 : kNoLockSlot);
    Lock lock(lock_class);
    acquire_release(state, lock);
    state.counters["acquisitions"] = static_cast<double>(lock_class.report().acquisitions);
}

void BM_Spinlock(benchmark::State& state) {
    BM_Instrumented<Spinlock>(state, LockKind::spinlock, true);
}
void BM_Mutex(benchmark::State& state) {
    BM_Instrumented<Mutex>(state, LockKind::mutex, true);
}
void BM_Spinlock_NoSlot(benchmark::State& state) {
    BM_Instrumented<Spinlock>(state, LockKind::spinlock, false);
}
void BM_Mutex_NoSlot(benchmark::State& state) {
    BM_Instrumented<Mutex>(state, LockKind::mutex, false);
}

} // namespace

BENCHMARK(BM_PlainSpinlock);
BENCHMARK(BM_Spinlock);
BENCHMARK(BM_Spinlock_NoSlot);
BENCHMARK(BM_PlainStdMutex);
BENCHMARK(BM_Mutex);
BENCHMARK(BM_Mutex_NoSlot);

BENCHMARK_MAIN();
