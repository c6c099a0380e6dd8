// ChargeStock (memcg_stock_pcp, v5.10 semantics) and MemcgCharger (try_charge_memcg),
// reference/memcg.md §1.5 and §2.2; single-threaded with exact values.
#include "engine/memcg/charge_stock.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

class ChargeStockTest : public ::testing::Test {
protected:
    const testing::PcVersion& version = testing::pc_versions()[1]; // v6.1
    ObjectRegistry registry;
    MemcgHierarchy tree{registry, version.memcg_layout(), version.semantics, HierarchyConfig{}};
    // A second leaf under top/mid, for memcg switches.
    MemCgroup other{registry, "top/mid/other",  tree.levels()[2].get(), version.memcg_layout(),
                    0,        version.semantics};
    ChargeStock stock{registry, "stock/0", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 32};
    ChargeCounters counters;
    MemcgCharger charger{stock, counters};

    MemCgroup& leaf() { return tree.leaf(); }
    MemCgroup& mid() { return *tree.levels()[2]; }
    MemCgroup* cached() const {
        return reinterpret_cast<MemCgroup*>(static_cast<std::uintptr_t>(stock.peek(stock::cached)));
    }
    // usage of leaf, mid, top, root
    void expect_usage(std::int64_t l, std::int64_t m, std::int64_t t, std::int64_t r) {
        EXPECT_EQ(tree.levels()[3]->memory().usage(), l);
        EXPECT_EQ(tree.levels()[2]->memory().usage(), m);
        EXPECT_EQ(tree.levels()[1]->memory().usage(), t);
        EXPECT_EQ(tree.levels()[0]->memory().usage(), r);
    }
    void charge_directly(MemCgroup& m, std::int64_t pages) {
        PageCounter* fail = nullptr;
        ASSERT_TRUE(m.memory().try_charge(pages, &fail));
    }
};

TEST_F(ChargeStockTest, StartsEmpty) {
    EXPECT_EQ(stock.batch(), 32u);
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(cached(), nullptr);
    EXPECT_FALSE(stock.consume(&leaf(), 1));
    stock.drain(); // nothing cached: no-op
    expect_usage(0, 0, 0, 0);
}

TEST_F(ChargeStockTest, ConsumeHits) {
    charge_directly(leaf(), 10);
    stock.refill(&leaf(), 10);
    EXPECT_EQ(cached(), &leaf());
    EXPECT_EQ(stock.cached_pages(), 10u);
    EXPECT_TRUE(stock.consume(&leaf(), 4));
    EXPECT_EQ(stock.cached_pages(), 6u);
    EXPECT_FALSE(stock.consume(&leaf(), 7)); // not enough
    EXPECT_FALSE(stock.consume(&other, 1));  // another memcg
    EXPECT_FALSE(stock.consume(&mid(), 1));  // not even its parent
    EXPECT_TRUE(stock.consume(&leaf(), 6));
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(cached(), &leaf()); // consume never uncaches
    expect_usage(10, 10, 10, 10); // stock pages are charged pages: consume writes no counter
}

TEST_F(ChargeStockTest, ConsumeRefusesMoreThanABatch) {
    charge_directly(leaf(), 32);
    stock.refill(&leaf(), 32);
    EXPECT_FALSE(stock.consume(&leaf(), 33));
    EXPECT_EQ(stock.cached_pages(), 32u);
}

TEST_F(ChargeStockTest, RefillDrainsPastBatch) {
    charge_directly(leaf(), 40);
    stock.refill(&leaf(), 20);
    stock.refill(&leaf(), 12);
    EXPECT_EQ(stock.cached_pages(), 32u); // == batch: kept
    expect_usage(40, 40, 40, 40);
    stock.refill(&leaf(), 1); // 33 > batch: all 33 go back to the counters
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(cached(), nullptr);
    expect_usage(7, 7, 7, 7);
}

TEST_F(ChargeStockTest, MemcgSwitchDrains) {
    charge_directly(leaf(), 5);
    charge_directly(other, 3);
    expect_usage(5, 8, 8, 8);
    stock.refill(&leaf(), 5);
    stock.refill(&other, 3);
    EXPECT_EQ(cached(), &other);
    EXPECT_EQ(stock.cached_pages(), 3u);
    expect_usage(0, 3, 3, 3);
    EXPECT_EQ(other.memory().usage(), 3);
    stock.drain();
    EXPECT_EQ(cached(), nullptr);
    EXPECT_EQ(stock.cached_pages(), 0u);
    expect_usage(0, 0, 0, 0);
    EXPECT_EQ(other.memory().usage(), 0);
}

TEST_F(ChargeStockTest, TryChargeChargesABatchAndRefillsTheSurplus) {
    EXPECT_TRUE(charger.try_charge(leaf(), 5));
    expect_usage(32, 32, 32, 32);
    EXPECT_EQ(cached(), &leaf());
    EXPECT_EQ(stock.cached_pages(), 27u);
    EXPECT_EQ(counters.counter_charges, 1u);
    EXPECT_EQ(counters.stock_hits, 0u);

    EXPECT_TRUE(charger.try_charge(leaf(), 27)); // served by the stock
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(counters.stock_hits, 1u);
    expect_usage(32, 32, 32, 32);

    EXPECT_TRUE(charger.try_charge(leaf(), 40)); // more than a batch: charged as is
    expect_usage(72, 72, 72, 72);
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(counters.counter_charges, 2u);

    EXPECT_TRUE(charger.try_charge(leaf(), 32)); // exactly a batch: no surplus
    expect_usage(104, 104, 104, 104);
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(counters.counter_charges, 3u);
    EXPECT_EQ(counters.failures, 0u);
    EXPECT_EQ(counters.over_high, 0u);
}

TEST_F(ChargeStockTest, TryChargeSwitchesTheStockToTheChargedMemcg) {
    EXPECT_TRUE(charger.try_charge(leaf(), 2)); // leaf stock 30
    EXPECT_TRUE(charger.try_charge(other, 2));  // stock switches: leaf's 30 drained
    EXPECT_EQ(cached(), &other);
    EXPECT_EQ(stock.cached_pages(), 30u);
    EXPECT_EQ(leaf().memory().usage(), 2);
    EXPECT_EQ(other.memory().usage(), 32);
    expect_usage(2, 34, 34, 34);
}

TEST_F(ChargeStockTest, RootIsNeverCharged) {
    EXPECT_TRUE(charger.try_charge(tree.root(), 5));
    expect_usage(0, 0, 0, 0);
    EXPECT_EQ(cached(), nullptr);
    EXPECT_EQ(counters.counter_charges, 0u);
    EXPECT_EQ(counters.stock_hits, 0u);
}

TEST_F(ChargeStockTest, UnchargeGoesThroughTheStock) {
    EXPECT_TRUE(charger.try_charge(leaf(), 8)); // usage 32, stock 24
    charger.uncharge_skmem(leaf(), 8);          // stock 32
    EXPECT_EQ(stock.cached_pages(), 32u);
    expect_usage(32, 32, 32, 32);
    EXPECT_TRUE(charger.try_charge(leaf(), 4)); // hit, stock 28
    charger.uncharge_skmem(leaf(), 4);          // stock 32
    charger.uncharge_skmem(leaf(), 0);          // no-op refill
    EXPECT_EQ(stock.cached_pages(), 32u);
    EXPECT_TRUE(charger.try_charge(leaf(), 3)); // hit, stock 29
    charger.uncharge_skmem(leaf(), 3);          // stock 32
    EXPECT_TRUE(charger.try_charge(leaf(), 1)); // hit, stock 31
    charger.uncharge_skmem(leaf(), 1);          // stock 32
    EXPECT_EQ(counters.stock_hits, 3u);
    stock.drain();
    expect_usage(0, 0, 0, 0);
}

TEST_F(ChargeStockTest, FailureRetriesWithoutTheSurplus) {
    PageCounter& lm = leaf().memory();
    lm.set_limits(0, 0, kPageCounterMax, 40);
    EXPECT_TRUE(charger.try_charge(leaf(), 8));  // batch of 32, stock 24
    EXPECT_TRUE(charger.try_charge(leaf(), 24)); // stock hit, stock 0
    EXPECT_TRUE(charger.try_charge(leaf(), 8));  // 32 fails (64 > 40), 8 fits exactly
    expect_usage(40, 40, 40, 40);
    EXPECT_EQ(stock.cached_pages(), 0u);
    EXPECT_EQ(counters.counter_charges, 2u);
    EXPECT_EQ(counters.failures, 0u);

    EXPECT_FALSE(charger.try_charge(leaf(), 1)); // 32 fails, then 1 fails
    EXPECT_EQ(counters.failures, 1u);
    EXPECT_EQ(counters.counter_charges, 2u);
    EXPECT_EQ(counters.stock_hits, 1u);
    expect_usage(40, 40, 40, 40);
    EXPECT_FALSE(charger.try_charge(leaf(), 33)); // more than a batch: a single attempt
    EXPECT_EQ(counters.failures, 2u);
    expect_usage(40, 40, 40, 40);
    EXPECT_EQ(lm.watermark(), 40);
}

TEST_F(ChargeStockTest, FailcntCountsEachPageCounterFailure) {
    // v6.1 semantics count failcnt unconditionally: one per refused page_counter charge,
    // so a charger failure after a refused batch costs two.
    PageCounter& lm = leaf().memory();
    lm.set_limits(0, 0, kPageCounterMax, 40);
    EXPECT_TRUE(charger.try_charge(leaf(), 8));  // 32 ok
    EXPECT_TRUE(charger.try_charge(leaf(), 24)); // hit
    EXPECT_TRUE(charger.try_charge(leaf(), 8));  // 32 refused (1), 8 ok
    EXPECT_EQ(lm.failcnt(), 1u);
    EXPECT_FALSE(charger.try_charge(leaf(), 1)); // 32 refused (2), 1 refused (3)
    EXPECT_EQ(lm.failcnt(), 3u);
    EXPECT_FALSE(charger.try_charge(leaf(), 33)); // 33 refused (4)
    EXPECT_EQ(lm.failcnt(), 4u);
    EXPECT_EQ(counters.failures, 2u);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(tree.levels()[i]->memory().failcnt(), 0u);
}

TEST_F(ChargeStockTest, HighCheckCountsOverHigh) {
    leaf().memory().set_limits(0, 0, 10, kPageCounterMax);
    EXPECT_TRUE(charger.try_charge(leaf(), 5)); // usage 32 > high 10
    EXPECT_EQ(counters.over_high, 1u);
    EXPECT_TRUE(charger.try_charge(leaf(), 5)); // stock hit: no check
    EXPECT_EQ(counters.over_high, 1u);
    // Over high at several levels still counts one per charge (the walk stops at the first).
    tree.levels()[1]->memory().set_limits(0, 0, 10, kPageCounterMax);
    EXPECT_TRUE(charger.try_charge(leaf(), 40));
    EXPECT_EQ(counters.over_high, 2u);
    EXPECT_EQ(counters.counter_charges, 2u);
}

TEST_F(ChargeStockTest, HighCheckWalksUpToTheRoot) {
    tree.root().memory().set_limits(0, 0, 40, kPageCounterMax);
    EXPECT_TRUE(charger.try_charge(leaf(), 32)); // root usage 32: not over
    EXPECT_EQ(counters.over_high, 0u);
    EXPECT_TRUE(charger.try_charge(leaf(), 32)); // root usage 64 > 40
    EXPECT_EQ(counters.over_high, 1u);
    // usage == high is not over high
    leaf().memory().set_limits(0, 0, 96, kPageCounterMax);
    tree.root().memory().set_limits(0, 0, 96, kPageCounterMax);
    EXPECT_TRUE(charger.try_charge(leaf(), 32)); // 96 everywhere
    EXPECT_EQ(counters.over_high, 1u);
}

} // namespace
} // namespace hitmap::engine
