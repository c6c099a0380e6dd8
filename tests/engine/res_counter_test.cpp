// The 2.6.31 res_counter: charge walks leaf to root under each level's lock and undoes the
// levels below a refusal; uncharge clamps at 0; the per-CPU precharge stock on top of it.
#include "engine/memcg/res_counter_stock.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

struct Chain {
    LockClass lock_class{kResCounterLockClass, LockKind::spinlock, 2};
    ResCounter root{lock_class, nullptr};
    ResCounter mid{lock_class, &root, 10'000};
    ResCounter leaf{lock_class, &mid};
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
    LockClass lock_class(kResCounterLockClass, LockKind::spinlock, 2);
    ResCounter root(lock_class, nullptr);
    ResCounter leaf(lock_class, &root, kLimitPages * kPageSize);
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

TEST(ResCounterStock, PrechargesInBatches) {
    LockClass lock_class(kResCounterLockClass, LockKind::spinlock, 1);
    ResCounter leaf(lock_class, nullptr);
    ResCounterStockCounters counters;
    ResCounterStock stock(leaf, 32, counters);
    for (int i = 0; i < 40; ++i)
        ASSERT_TRUE(stock.charge_page());
    EXPECT_EQ(counters.counter_charges, 2u);
    EXPECT_EQ(counters.stock_hits, 38u);
    EXPECT_EQ(stock.precharged_pages(), 24u);
    EXPECT_EQ(leaf.usage(), 64 * kPageSize);
    for (int i = 0; i < 40; ++i)
        stock.uncharge_page();
    EXPECT_EQ(counters.counter_uncharges, 1u);
    EXPECT_EQ(stock.pending_uncharges(), 8u);
    EXPECT_EQ(leaf.usage(), 32 * kPageSize);
    stock.drain();
    EXPECT_EQ(leaf.usage(), 0u);
    EXPECT_EQ(counters.counter_uncharges, 2u);
    EXPECT_EQ(stock.precharged_pages(), 0u);
}

TEST(ResCounterStock, FallsBackToOnePageNearTheLimit) {
    LockClass lock_class(kResCounterLockClass, LockKind::spinlock, 1);
    ResCounter leaf(lock_class, nullptr, 40 * kPageSize);
    ResCounterStockCounters counters;
    ResCounterStock stock(leaf, 32, counters);
    int charged = 0;
    while (stock.charge_page())
        ++charged;
    EXPECT_EQ(charged, 40);
    EXPECT_EQ(leaf.usage(), 40 * kPageSize);
    EXPECT_EQ(leaf.max_usage(), 40 * kPageSize);
    // 1 batch, then 8 batches refused each followed by a single page, then batch + page refused.
    EXPECT_EQ(counters.counter_charges, 1u + 8u);
    EXPECT_EQ(counters.charge_refusals, 8u + 2u);
    EXPECT_EQ(leaf.failcnt(), 10u);
    EXPECT_EQ(counters.page_failures, 1u);
}

TEST(ResCounterStock, BatchOneIsPerPage) {
    LockClass lock_class(kResCounterLockClass, LockKind::spinlock, 1);
    ResCounter leaf(lock_class, nullptr);
    ResCounterStockCounters counters;
    ResCounterStock stock(leaf, 1, counters);
    for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(stock.charge_page());
    for (int i = 0; i < 5; ++i)
        stock.uncharge_page();
    EXPECT_EQ(counters.counter_charges, 5u);
    EXPECT_EQ(counters.counter_uncharges, 5u);
    EXPECT_EQ(counters.stock_hits, 0u);
    EXPECT_EQ(leaf.usage(), 0u);
}

} // namespace
} // namespace hitmap::engine
