// The instrumented locks and their lock classes: lockdep's contention, wait, hold and bounce
// accounting in deterministic handshake scenarios, the contention/contending points, the wait
// histogram, and the merge of per-slot statistics.
#include "engine/locks/instrumented_lock.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <barrier>
#include <bit>
#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <numeric>
#include <optional>
#include <pthread.h>
#include <thread>

namespace hitmap::engine {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::uint64_t now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

// Pins the calling thread; false when the cpuset does not let it run there.
bool pin_self(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0 && sched_getcpu() == cpu;
}

// A one-way signal between two threads, by spinning: the scenarios need no sleeping waits.
class Flag {
public:
    void raise() { flag_.store(true, std::memory_order_release); }
    void wait() const {
        while (!flag_.load(std::memory_order_acquire))
            std::this_thread::yield();
    }

private:
    std::atomic<bool> flag_{false};
};

// A raw lock that raises `waiting` when a lock() has failed its first try and is about to wait
// on the word: the scenarios release the holder's lock only after that, so a waiter behind a
// holder is one contention however late the scheduler runs it (a sleep of the holder's was
// not: on a busy 2-vCPU machine the waiter could start after the release).
template <class Raw> struct ObservedRaw : Raw {
    static inline Flag* waiting = nullptr;
    template <class W = NativeWordAccess> void lock_contended(const W& w = {}) {
        if (waiting)
            waiting->raise();
        Raw::lock_contended(w);
    }
};
using ObservedSpinlock = InstrumentedLock<ObservedRaw<RawSpinlock>>;
using ObservedMutex = InstrumentedLock<ObservedRaw<RawFutexMutex>>;

// Installs `flag` as the lock type's waiting signal for one scenario.
template <class Lock> struct WaitingSignal;
template <class Raw> struct WaitingSignal<InstrumentedLock<ObservedRaw<Raw>>> {
    explicit WaitingSignal(Flag& flag) { ObservedRaw<Raw>::waiting = &flag; }
    ~WaitingSignal() { ObservedRaw<Raw>::waiting = nullptr; }
};

template <class Lock> constexpr LockKind kind_of() {
    return std::is_same_v<Lock, ObservedSpinlock> ? LockKind::spinlock : LockKind::mutex;
}

template <class Lock> class InstrumentedLockTest : public ::testing::Test {};
using LockTypes = ::testing::Types<ObservedSpinlock, ObservedMutex>;
TYPED_TEST_SUITE(InstrumentedLockTest, LockTypes);

// The two call sites the points must name.
template <class Lock> void holder_path(Lock& lock) {
    lock.lock();
}
template <class Lock> void waiter_path(Lock& lock) {
    lock.lock();
}

TYPED_TEST(InstrumentedLockTest, UncontendedAcquisitionsHaveNoContention) {
    LockClass cls("&test->lock", kind_of<TypeParam>(), 1);
    std::thread t([&] {
        LockSlotScope slot(0);
        TypeParam lock(cls);
        for (int i = 0; i < 1000; ++i) {
            lock.lock();
            lock.unlock();
        }
    });
    t.join();
    const LockClassReport r = cls.report();
    EXPECT_EQ(r.name, "&test->lock");
    EXPECT_EQ(r.kind, kind_of<TypeParam>() == LockKind::spinlock ? "spinlock" : "mutex");
    EXPECT_EQ(r.acquisitions, 1000u);
    EXPECT_EQ(r.hold.count, 1000u);
    EXPECT_LE(r.hold.min_ns, r.hold.max_ns);
    EXPECT_GE(r.hold.total_ns, r.hold.max_ns);
    EXPECT_EQ(r.contentions, 0u);
    EXPECT_EQ(r.con_bounces, 0u);
    EXPECT_EQ(r.wait, LockTimeStat{});
    EXPECT_TRUE(r.contention_points.empty());
    EXPECT_TRUE(r.contending_points.empty());
    EXPECT_EQ(std::accumulate(r.wait_log2_ns.begin(), r.wait_log2_ns.end(), std::uint64_t{0}), 0u);
}

// The holder takes the lock, the waiter fails its first try and waits, the holder sees that,
// keeps the lock 2 ms longer and releases: one contention whose wait covers at least the time
// the holder held after it saw the waiter wait.
TYPED_TEST(InstrumentedLockTest, WaiterBehindHolderIsOneContention) {
    LockClass cls("&test->lock", kind_of<TypeParam>(), 2);
    TypeParam lock(cls);
    Flag held, about_to_lock, waiting;
    const WaitingSignal<TypeParam> signal(waiting);
    std::uint64_t seen_ns = 0, released_ns = 0, waiter_start_ns = 0, waiter_done_ns = 0;
    std::thread holder([&] {
        LockSlotScope slot(0);
        holder_path(lock);
        held.raise();
        about_to_lock.wait();
        waiting.wait();
        seen_ns = now_ns();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        released_ns = now_ns();
        lock.unlock();
    });
    std::thread waiter([&] {
        LockSlotScope slot(1);
        held.wait();
        waiter_start_ns = now_ns();
        about_to_lock.raise();
        waiter_path(lock);
        waiter_done_ns = now_ns();
        lock.unlock();
    });
    holder.join();
    waiter.join();

    const LockClassReport r = cls.report();
    EXPECT_EQ(r.contentions, 1u);
    EXPECT_EQ(r.wait.count, 1u);
    EXPECT_EQ(r.acquisitions, 2u);
    // The lock clock is the TSC at a calibrated rate: allow it 0.1 % against steady_clock.
    const auto at_least = [](std::uint64_t ns) { return ns - ns / 1000; };
    const auto at_most = [](std::uint64_t ns) { return ns + ns / 1000; };
    EXPECT_GE(r.wait.min_ns, at_least(released_ns - seen_ns));
    EXPECT_LE(r.wait.max_ns, at_most(waiter_done_ns - waiter_start_ns));
    EXPECT_EQ(r.wait.min_ns, r.wait.total_ns);
    // The holder's hold covers the sleep too.
    EXPECT_GE(r.hold.max_ns, at_least(released_ns - seen_ns));
    EXPECT_EQ(r.wait_log2_ns[std::bit_width(r.wait.total_ns) - 1], 1u);

    ASSERT_EQ(r.contention_points.size(), 1u);
    EXPECT_THAT(r.contention_points[0].function, HasSubstr("waiter_path"));
    EXPECT_THAT(r.contention_points[0].location, StartsWith("tests/engine/lock_stat_test.cpp:"));
    EXPECT_EQ(r.contention_points[0].count, 1u);
    ASSERT_EQ(r.contending_points.size(), 1u);
    EXPECT_THAT(r.contending_points[0].function, HasSubstr("holder_path"));
    EXPECT_EQ(r.contending_points[0].count, 1u);
}

// Two threads on two CPUs take turns, never overlapping: every acquisition after the first
// comes from the other CPU. A waiter on the other CPU is a con-bounce.
TYPED_TEST(InstrumentedLockTest, BouncesBetweenTwoPinnedThreads) {
    const std::vector<int> cpus = allowed_cpus();
    if (cpus.size() < 2)
        GTEST_SKIP() << "needs two CPUs";
    constexpr int kRounds = 10;
    LockClass cls("&test->lock", kind_of<TypeParam>(), 2);
    std::optional<TypeParam> lock;
    std::atomic<int> turn{0}; // even: thread A, odd: thread B
    std::atomic<int> pinned{0};
    std::barrier both_pinned(2);
    auto take_turns = [&](int parity) {
        for (int i = 0; i < kRounds; ++i) {
            while (turn.load(std::memory_order_acquire) != 2 * i + parity)
                std::this_thread::yield();
            lock->lock();
            lock->unlock();
            turn.fetch_add(1, std::memory_order_acq_rel);
        }
    };
    std::thread a([&] {
        LockSlotScope slot(0);
        pinned += pin_self(cpus[0]) ? 1 : 0;
        lock.emplace(cls); // lockdep_init_map: the lock starts on A's CPU
        both_pinned.arrive_and_wait();
        if (pinned == 2)
            take_turns(0);
    });
    std::thread b([&] {
        LockSlotScope slot(1);
        pinned += pin_self(cpus[1]) ? 1 : 0;
        both_pinned.arrive_and_wait();
        if (pinned == 2)
            take_turns(1);
    });
    a.join();
    b.join();
    if (pinned != 2)
        GTEST_SKIP() << "could not pin to CPUs " << cpus[0] << " and " << cpus[1];

    const LockClassReport r = cls.report();
    EXPECT_EQ(r.acquisitions, 2u * kRounds);
    EXPECT_EQ(r.acq_bounces, 2u * kRounds - 1);
    EXPECT_EQ(r.contentions, 0u);
    EXPECT_EQ(r.con_bounces, 0u);
}

TYPED_TEST(InstrumentedLockTest, WaiterOnAnotherCpuIsConBounce) {
    const std::vector<int> cpus = allowed_cpus();
    if (cpus.size() < 2)
        GTEST_SKIP() << "needs two CPUs";
    LockClass cls("&test->lock", kind_of<TypeParam>(), 2);
    TypeParam lock(cls);
    Flag held, about_to_lock, holder_done, waiting;
    const WaitingSignal<TypeParam> signal(waiting);
    bool pinned_holder = false, pinned_waiter = false;
    std::thread holder([&] {
        LockSlotScope slot(0);
        pinned_holder = pin_self(cpus[0]);
        lock.lock();
        held.raise();
        about_to_lock.wait();
        waiting.wait();
        lock.unlock();
        holder_done.raise();
    });
    std::thread waiter([&] {
        LockSlotScope slot(1);
        pinned_waiter = pin_self(cpus[1]);
        held.wait();
        about_to_lock.raise();
        lock.lock();
        lock.unlock();
    });
    holder.join();
    waiter.join();
    if (!pinned_holder || !pinned_waiter)
        GTEST_SKIP() << "could not pin to CPUs " << cpus[0] << " and " << cpus[1];
    const LockClassReport r = cls.report();
    EXPECT_EQ(r.contentions, 1u);
    EXPECT_EQ(r.con_bounces, 1u);
}

// Mutual exclusion under real contention, and the statistics adding up.
TYPED_TEST(InstrumentedLockTest, CountsAddUpUnderContention) {
    constexpr unsigned kThreads = 2;
    constexpr std::uint64_t kIterations = 20000;
    LockClass cls("&test->lock", kind_of<TypeParam>(), kThreads);
    TypeParam lock(cls);
    std::uint64_t shared = 0; // guarded by lock
    WorkerPool::run(kThreads, StopCondition{std::nullopt, kIterations, nullptr}, {},
                    [&](unsigned slot, const std::atomic<bool>&) {
                        LockSlotScope scope(slot);
                        for (std::uint64_t i = 0; i < kIterations; ++i) {
                            lock.lock();
                            ++shared;
                            lock.unlock();
                        }
                    });
    EXPECT_EQ(shared, kThreads * kIterations);
    const LockClassReport r = cls.report();
    EXPECT_EQ(r.acquisitions, kThreads * kIterations);
    EXPECT_EQ(r.wait.count, r.contentions);
    EXPECT_LE(r.con_bounces, r.contentions);
    EXPECT_LE(r.acq_bounces, r.acquisitions);
    EXPECT_EQ(std::accumulate(r.wait_log2_ns.begin(), r.wait_log2_ns.end(), std::uint64_t{0}),
              r.contentions);
    std::uint64_t at_points = 0;
    for (const auto& p : r.contention_points)
        at_points += p.count;
    EXPECT_EQ(at_points, r.contentions); // one site only
    EXPECT_LE(r.contention_points.size(), 1u);
}

// Distinct call sites, one per line.
std::source_location site_a() {
    return std::source_location::current();
}
std::source_location site_b() {
    return std::source_location::current();
}
std::source_location site_c() {
    return std::source_location::current();
}
std::source_location site_d() {
    return std::source_location::current();
}
std::source_location site_e() {
    return std::source_location::current();
}

LockContention contention(std::uint64_t wait_ns, std::source_location waiter,
                          std::source_location holder, bool bounce = false) {
    LockContention c;
    c.wait_ns = wait_ns;
    c.bounce = bounce;
    c.waiter = waiter;
    c.holder = holder;
    return c;
}

TEST(LockClass, KeepsTheFirstFourPointsSeen) {
    LockClass cls("&test->lock", LockKind::spinlock, 1);
    LockSlotScope slot(0);
    const std::source_location sites[] = {site_a(), site_b(), site_c(), site_d(), site_e()};
    for (const auto& s : sites)
        cls.record_contention(contention(10, s, site_a()));
    cls.record_contention(contention(10, site_b(), site_e()));
    cls.record_contention(contention(10, site_e(), site_e()));
    const LockClassReport r = cls.report();
    EXPECT_EQ(r.contentions, 7u);
    ASSERT_EQ(r.contention_points.size(), 4u);
    const char* names[] = {"site_a", "site_b", "site_c", "site_d"};
    const std::uint64_t counts[] = {1, 2, 1, 1};
    for (int i = 0; i < 4; ++i) {
        EXPECT_THAT(r.contention_points[i].function, HasSubstr(names[i]));
        EXPECT_EQ(r.contention_points[i].location,
                  "tests/engine/lock_stat_test.cpp:" + std::to_string(sites[i].line()));
        EXPECT_EQ(r.contention_points[i].count, counts[i]);
    }
    ASSERT_EQ(r.contending_points.size(), 2u);
    EXPECT_THAT(r.contending_points[0].function, HasSubstr("site_a"));
    EXPECT_EQ(r.contending_points[0].count, 5u);
    EXPECT_THAT(r.contending_points[1].function, HasSubstr("site_e"));
    EXPECT_EQ(r.contending_points[1].count, 2u);
}

TEST(LockClass, WaitHistogramHasLog2Buckets) {
    LockClass cls("&test->lock", LockKind::mutex, 1);
    LockSlotScope slot(0);
    for (std::uint64_t ns : {0u, 1u, 2u, 3u, 1023u, 1024u, 1u << 20})
        cls.record_contention(contention(ns, site_a(), site_b()));
    const LockClassReport r = cls.report();
    EXPECT_EQ(r.wait_log2_ns[0], 2u); // 0 and 1
    EXPECT_EQ(r.wait_log2_ns[1], 2u); // 2 and 3
    EXPECT_EQ(r.wait_log2_ns[9], 1u);
    EXPECT_EQ(r.wait_log2_ns[10], 1u);
    EXPECT_EQ(r.wait_log2_ns[20], 1u);
    EXPECT_EQ(std::accumulate(r.wait_log2_ns.begin(), r.wait_log2_ns.end(), std::uint64_t{0}),
              r.contentions);
    EXPECT_EQ(r.wait.min_ns, 0u);
    EXPECT_EQ(r.wait.max_ns, 1u << 20);
}

TEST(LockClass, MergesSlotsAndTheOverflowSlot) {
    LockClass cls("&test->lock", LockKind::spinlock, 2);
    {
        LockSlotScope slot(0);
        cls.record_contention(contention(100, site_a(), site_b(), true));
        cls.record_acquisition(true);
        cls.record_release(50);
    }
    {
        LockSlotScope slot(1);
        cls.record_contention(contention(30, site_a(), site_b(), false));
        cls.record_acquisition(false);
        cls.record_release(500);
        cls.record_acquisition(true);
        cls.record_release(70);
    }
    // No slot, and a slot beyond the class's: both land in the overflow slot.
    cls.record_contention(contention(7000, site_c(), site_b(), true));
    cls.record_release(5);
    {
        LockSlotScope slot(9);
        cls.record_release(6);
    }
    const LockClassReport r = cls.report();
    EXPECT_EQ(r.contentions, 3u);
    EXPECT_EQ(r.con_bounces, 2u);
    EXPECT_EQ(r.wait, (LockTimeStat{3, 30, 7000, 7130}));
    EXPECT_EQ(r.acq_bounces, 2u);
    EXPECT_EQ(r.acquisitions, 5u);
    EXPECT_EQ(r.hold, (LockTimeStat{5, 5, 500, 631}));
    ASSERT_EQ(r.contention_points.size(), 2u);
    EXPECT_EQ(r.contention_points[0].count, 2u);
    EXPECT_EQ(r.contention_points[1].count, 1u);
    ASSERT_EQ(r.contending_points.size(), 1u);
    EXPECT_EQ(r.contending_points[0].count, 3u);
}

TEST(LockClass, EmptyReport) {
    const LockClass cls("&test->lock", LockKind::mutex, 4);
    LockClassReport expected;
    expected.name = "&test->lock";
    expected.kind = "mutex";
    EXPECT_EQ(cls.report(), expected);
}

} // namespace
} // namespace hitmap::engine
