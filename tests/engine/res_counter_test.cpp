// The 2.6.31 res_counter: charge walks leaf to root under each level's lock and undoes the
// levels below a refusal; uncharge clamps at 0; the lock word shares the counters' line; and
// the 2009 page charging on top of it (precharge, batched uncharge, memsw, css references).
#include "engine/memcg/res_memcg.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

struct Chain {
    ObjectRegistry registry;
    LockClass lock_class{kResCounterLockClass, LockKind::spinlock, 2};
    ResCounter root{registry, "root", lock_class, nullptr};
    ResCounter mid{registry, "mid", lock_class, &root, 10'000};
    ResCounter leaf{registry, "leaf", lock_class, &mid};
};

TEST(ResCounter, ChargeReachesEveryLevel) {
    Chain c;
    EXPECT_TRUE(c.leaf.charge(4096));
    EXPECT_TRUE(c.leaf.charge(1000));
    for (const ResCounter* level : {&c.leaf, &c.mid, &c.root}) {
        EXPECT_EQ(level->usage(), 5096u);
        EXPECT_EQ(level->max_usage(), 5096u);
        EXPECT_EQ(level->failcnt(), 0u);
    }
    c.leaf.uncharge(4096);
    EXPECT_EQ(c.root.usage(), 1000u);
    EXPECT_EQ(c.root.max_usage(), 5096u);
    EXPECT_EQ(c.leaf.parent(), &c.mid);
    EXPECT_EQ(c.mid.limit(), 10'000u);
}

TEST(ResCounter, RefusalUndoesTheLevelsBelow) {
    Chain c;
    ASSERT_TRUE(c.leaf.charge(8000));
    ResCounter* failed_at = nullptr;
    EXPECT_FALSE(c.leaf.charge(2001, &failed_at));
    EXPECT_EQ(failed_at, &c.mid);
    EXPECT_EQ(c.mid.failcnt(), 1u);
    EXPECT_EQ(c.leaf.failcnt(), 0u);
    EXPECT_EQ(c.root.failcnt(), 0u);
    for (const ResCounter* level : {&c.leaf, &c.mid, &c.root}) {
        EXPECT_EQ(level->usage(), 8000u);
        EXPECT_EQ(level->max_usage(), level == &c.leaf ? 10'001u : 8000u);
    }
    EXPECT_TRUE(c.leaf.charge(2000)); // exactly the limit is allowed
    EXPECT_EQ(c.mid.usage(), 10'000u);
}

TEST(ResCounter, UnchargeClampsAtZero) {
    Chain c;
    ASSERT_TRUE(c.mid.charge(100));
    c.leaf.uncharge(300);
    EXPECT_EQ(c.leaf.usage(), 0u);
    EXPECT_EQ(c.mid.usage(), 0u);
    EXPECT_EQ(c.root.usage(), 0u);
}

TEST(ResCounter, EveryLevelTakesItsLock) {
    Chain c;
    ASSERT_TRUE(c.leaf.charge(1));
    c.leaf.uncharge(1);
    ASSERT_FALSE(c.leaf.charge(20'000)); // leaf, mid refuses, undo leaf
    const LockClassReport r = c.lock_class.report();
    EXPECT_EQ(r.name, "&counter->lock");
    EXPECT_EQ(r.kind, "spinlock");
    EXPECT_EQ(r.acquisitions, 3u + 3u + 3u);
}

// Two threads charge page by page until refused, then give everything back.
TEST(ResCounter, NeverAboveTheLimitUnderTwoThreads) {
    constexpr std::uint64_t kLimitPages = 50;
    constexpr std::uint64_t kRounds = 2000;
    for (const SpinlockKind kind : {SpinlockKind::ticket, SpinlockKind::test_and_set}) {
        ObjectRegistry registry;
        LockClass lock_class(kResCounterLockClass, LockKind::spinlock, 2);
        ResCounter root(registry, "root", lock_class, nullptr, kResCounterMax, kind);
        ResCounter leaf(registry, "leaf", lock_class, &root, kLimitPages * kPageSize, kind);
        std::vector<std::uint64_t> refused(2, 0);
        WorkerPool::run(2, StopCondition{std::nullopt, kRounds, nullptr}, {},
                        [&](unsigned slot, const std::atomic<bool>&) {
                            LockSlotScope scope(slot);
                            for (std::uint64_t round = 0; round < kRounds; ++round) {
                                std::uint64_t held = 0;
                                while (leaf.charge(kPageSize))
                                    ++held;
                                ++refused[slot];
                                for (; held > 0; --held)
                                    leaf.uncharge(kPageSize);
                            }
                        });
        EXPECT_EQ(leaf.usage(), 0u);
        EXPECT_EQ(root.usage(), 0u);
        EXPECT_EQ(leaf.max_usage(), kLimitPages * kPageSize);
        EXPECT_EQ(leaf.failcnt(), refused[0] + refused[1]);
        EXPECT_EQ(root.failcnt(), 0u);
        const LockClassReport r = lock_class.report();
        EXPECT_EQ(r.wait.count, r.contentions);
    }
}

// A charge is, per level: the lock word's acquiring atomic, usage, limit, usage, max_usage
// under the lock, the release; all on one line of the 48-byte struct.
TEST(ResCounter, TheLockWordSharesTheCountersLine) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    ObjectRegistry registry;
    LockClass lock_class(kResCounterLockClass, LockKind::spinlock, 1);
    ResCounter leaf(registry, "memcg/res", lock_class, nullptr);
    EXPECT_EQ(leaf.layout().at(rc::lock).offset, 32u);
    EXPECT_EQ(leaf.layout().at(rc::usage).offset / 64, leaf.layout().at(rc::lock).offset / 64);
    TraceBuffer buffer(64, TraceBuffer::read_tsc());
    {
        ThreadTraceScope scope(&buffer);
        ASSERT_TRUE(leaf.charge(kPageSize));
        buffer.end_operation();
    }
    std::vector<std::string> seq;
    for (const TraceRecord& r : buffer.records())
        seq.push_back(std::string(leaf.layout().field_name(r.field)) + " " + to_string(r.kind()));
    EXPECT_EQ(seq, (std::vector<std::string>{"lock rmw", "usage load", "limit load", "usage store",
                                             "max_usage load", "max_usage store", "lock store",
                                             "parent load"}));
}

struct Memcg {
    explicit Memcg(ResMemcgConfig config = {})
        : memcg(registry, lock_class, config) {}
    ObjectRegistry registry;
    LockClass lock_class{kResCounterLockClass, LockKind::spinlock, 1};
    ResMemcgHierarchy memcg;
    ResChargeCounters counters;
};

TEST(ResPageCharger, ChargeSizeFollowsNrCpus) {
    EXPECT_EQ(charge_size_pages(64), 12u);
    EXPECT_EQ(charge_size_pages(4096), 516u);
    EXPECT_EQ(charge_size_pages(8), 4u);
}

// 2.6.31: one res_counter call per page each way, and a css reference per charged page.
TEST(ResPageCharger, PerPageIsOneCallEachWay) {
    Memcg m;
    ResPageCharger charger(m.memcg, 1, false, m.counters);
    for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(charger.charge_page());
    EXPECT_EQ(m.memcg.css().peek(css31::refcnt), 5u);
    charger.uncharge_start(); // no batching in 2.6.31
    for (int i = 0; i < 5; ++i)
        charger.uncharge_page();
    charger.uncharge_end();
    EXPECT_EQ(m.counters.counter_charges, 5u);
    EXPECT_EQ(m.counters.counter_uncharges, 5u);
    EXPECT_EQ(m.counters.precharge_hits, 0u);
    EXPECT_EQ(m.memcg.res().usage(), 0u);
    EXPECT_EQ(m.memcg.css().peek(css31::refcnt), 0u);
    EXPECT_EQ(m.lock_class.report().acquisitions, 10u);
}

// The precharge takes CHARGE_SIZE at once and serves the next pages from the CPU's count;
// uncharges are batched only between uncharge_start() and uncharge_end().
TEST(ResPageCharger, PrechargeAndBatchedUncharge) {
    Memcg m;
    ResPageCharger charger(m.memcg, 12, true, m.counters);
    for (int i = 0; i < 30; ++i)
        ASSERT_TRUE(charger.charge_page());
    EXPECT_EQ(m.counters.counter_charges, 3u); // pages 1, 13, 25
    EXPECT_EQ(m.counters.precharge_hits, 27u);
    EXPECT_EQ(charger.precharged_pages(), 6u);
    EXPECT_EQ(m.memcg.res().usage(), 36 * kPageSize);
    charger.uncharge_page(); // outside a batch: at once
    EXPECT_EQ(m.counters.counter_uncharges, 1u);
    charger.uncharge_start();
    for (int i = 0; i < 20; ++i)
        charger.uncharge_page();
    EXPECT_EQ(m.counters.counter_uncharges, 1u); // gathered
    charger.uncharge_end();
    EXPECT_EQ(m.counters.counter_uncharges, 2u);
    EXPECT_EQ(m.counters.batched_pages, 20u);
    EXPECT_EQ(m.memcg.res().usage(), 15 * kPageSize);
    charger.drain();
    EXPECT_EQ(m.memcg.res().usage(), 9 * kPageSize); // the 9 pages still held
}

// With swap accounting every res_counter call is made on memsw too: two locks of one class.
TEST(ResPageCharger, SwapAccountingChargesMemswToo) {
    Memcg m({.swap_account = true});
    ASSERT_NE(m.memcg.memsw(), nullptr);
    ResPageCharger charger(m.memcg, 1, false, m.counters);
    ASSERT_TRUE(charger.charge_page());
    charger.uncharge_page();
    EXPECT_EQ(m.lock_class.report().acquisitions, 4u);
    EXPECT_EQ(m.memcg.memsw()->max_usage(), kPageSize);
}

// The parents exist only with use_hierarchy.
TEST(ResPageCharger, HierarchyOnlyWithUseHierarchy) {
    Memcg flat({.depth = 3});
    EXPECT_EQ(flat.memcg.res().parent(), nullptr);
    Memcg deep({.use_hierarchy = true, .depth = 3});
    ASSERT_NE(deep.memcg.res().parent(), nullptr);
    EXPECT_NE(deep.memcg.res().parent()->parent(), nullptr);
    ResPageCharger charger(deep.memcg, 1, false, deep.counters);
    ASSERT_TRUE(charger.charge_page());
    EXPECT_EQ(deep.memcg.top_res().usage(), kPageSize);
    EXPECT_EQ(deep.lock_class.report().acquisitions, 3u);
}

TEST(ResPageCharger, FallsBackToOnePageNearTheLimit) {
    Memcg m({.limit_bytes = 40 * kPageSize});
    ResPageCharger charger(m.memcg, 32, true, m.counters);
    int charged = 0;
    while (charger.charge_page())
        ++charged;
    EXPECT_EQ(charged, 40);
    EXPECT_EQ(m.memcg.res().max_usage(), 40 * kPageSize);
    EXPECT_EQ(m.counters.page_failures, 1u);
    EXPECT_EQ(m.memcg.css().peek(css31::refcnt), 40u); // the refused page gave its reference back
}

} // namespace
} // namespace hitmap::engine
