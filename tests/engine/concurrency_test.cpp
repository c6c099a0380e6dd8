// Invariants of the charge model under 2, 4 and 8 threads (run under TSan in CI as well).
//
// What is NOT asserted, on purpose: failcnt == number of failures, and watermark >= every usage
// another thread may observe. The kernel's failcnt++ is a deliberate data race
// (data_race(c->failcnt++)) and the watermark update a racy compare-then-store; the model
// reproduces both with relaxed atomic load+store, so concurrent increments/peaks may be lost.
// Usage itself may exceed max transiently (add, then check, then undo).
#include "engine/memcg/charge_stock.hpp"
#include "engine/runtime/worker_pool.hpp"
#include "engine/workloads/socket_charge_walk.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <tuple>
#include <vector>

namespace hitmap::engine {
namespace {

using testing::PcVersion;

constexpr std::uint64_t kIterations = 20000;
constexpr unsigned kMaxPages = 8;
constexpr std::size_t kInflight = 16;

using Param = std::tuple<PcVersion, unsigned>;

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
    return testing::version_test_name(std::get<0>(info.param).name) + "_" +
           std::to_string(std::get<1>(info.param)) + "threads";
}

class ConcurrentCharge : public ::testing::TestWithParam<Param> {
protected:
    const PcVersion& version() const { return std::get<0>(GetParam()); }
    unsigned threads() const { return std::get<1>(GetParam()); }
};

// Chargers with per-thread stocks charge and uncharge at random, then give everything back.
TEST_P(ConcurrentCharge, StocksAndCountersReturnToZero) {
    ObjectRegistry registry;
    HierarchyConfig config;
    config.top_min = 16;
    config.top_low = 32;
    MemcgHierarchy tree(registry, version().memcg_layout(), version().semantics, config);
    constexpr unsigned kBatch = 32;
    std::vector<std::unique_ptr<ChargeStock>> stocks;
    for (unsigned t = 0; t < threads(); ++t)
        stocks.push_back(std::make_unique<ChargeStock>(
            registry, "stock", *find_builtin_layout("memcg_stock_pcp", "v5.10"), kBatch));
    std::vector<ChargeCounters> counters(threads());
    std::vector<std::uint64_t> charged(threads(), 0);

    WorkerPool::run(threads(), StopCondition{std::nullopt, kIterations}, {},
                    [&](unsigned slot, const std::atomic<bool>&) {
                        MemcgCharger charger(*stocks[slot], counters[slot]);
                        SocketChargeWalk socket(charger, tree.leaf(), kMaxPages, kInflight,
                                                0x9E3779B97F4A7C15ull * (slot + 1));
                        for (std::uint64_t i = 0; i < kIterations; ++i)
                            socket.step();
                        socket.release_all();
                        charged[slot] = socket.charged_pages();
                        stocks[slot]->drain();
                    });

    // Per thread at most kInflight * kMaxPages held, plus a stock of up to batch + kMaxPages
    // before it drains, plus the batch being charged.
    const std::int64_t bound = threads() * (kInflight * kMaxPages + 2 * kBatch + kMaxPages);
    std::uint64_t hits = 0, batches = 0;
    for (unsigned t = 0; t < threads(); ++t) {
        EXPECT_EQ(stocks[t]->cached_pages(), 0u);
        EXPECT_EQ(stocks[t]->peek(stock::cached), 0u);
        EXPECT_EQ(counters[t].failures, 0u);
        EXPECT_GT(charged[t], 0u);
        hits += counters[t].stock_hits;
        batches += counters[t].counter_charges;
    }
    EXPECT_GT(hits, 0u);
    EXPECT_GT(batches, 0u);
    for (const auto& level : tree.levels()) {
        const PageCounter& c = level->memory();
        SCOPED_TRACE(registry.at(c.object().id()).name);
        EXPECT_EQ(c.usage(), 0);
        EXPECT_GE(c.watermark(), static_cast<std::int64_t>(kBatch));
        EXPECT_LE(c.watermark(), bound);
        EXPECT_EQ(c.failcnt(), 0u);
    }
    // Every xchg's delta went into the parent's children_* sum: they telescope exactly,
    // whatever interleaving left the final protected amount.
    const PageCounter& root = tree.root().memory();
    const PageCounter& top = tree.levels()[1]->memory();
    EXPECT_EQ(root.children_min_usage(), top.min_usage());
    EXPECT_EQ(root.peek(pc::children_low_usage), top.peek(pc::low_usage));
    EXPECT_LE(top.min_usage(), 16);
    EXPECT_LE(top.low_usage(), 32);
    for (std::size_t i = 2; i < tree.levels().size(); ++i) { // no protection below top
        EXPECT_EQ(tree.levels()[i]->memory().min_usage(), 0);
        EXPECT_EQ(tree.levels()[i - 1]->memory().children_min_usage(), 0);
    }
}

// Bare page_counter charges against small limits: usage never settles above max, and each
// refused charge is reported at exactly one level.
TEST_P(ConcurrentCharge, LimitsHoldUnderContention) {
    testing::Chain chain(version());
    chain.leaf.set_limits(0, 0, kPageCounterMax, 40);
    chain.mid.set_limits(0, 0, kPageCounterMax, 32);
    if (version().semantics.v6_15_fields)
        chain.mid.set_track_failcnt(false); // v1-only since v6.15: the mid level stops counting
    const auto levels = chain.levels();     // leaf, mid, top, root
    // fails[slot][level]
    std::vector<std::array<std::uint64_t, 4>> fails(threads(), std::array<std::uint64_t, 4>{});
    std::vector<std::uint64_t> successes(threads(), 0);

    WorkerPool::run(threads(), StopCondition{std::nullopt, kIterations}, {},
                    [&](unsigned slot, const std::atomic<bool>&) {
                        std::vector<std::int64_t> ring; // FIFO of held charges
                        std::size_t head = 0;
                        for (std::uint64_t i = 0; i < kIterations; ++i) {
                            const std::int64_t pages = 1 + static_cast<std::int64_t>(i % kMaxPages);
                            PageCounter* fail = nullptr;
                            const bool ok = chain.leaf.try_charge(pages, &fail);
                            if (ok) {
                                ring.push_back(pages);
                                ++successes[slot];
                            } else {
                                const auto at = std::find(levels.begin(), levels.end(), fail);
                                ASSERT_NE(at, levels.end());
                                ++fails[slot][at - levels.begin()];
                            }
                            // Give back the oldest when the ring is full or the charge failed;
                            // alone, a thread would hold 1+...+8 = 36 > 32 after 8 charges.
                            if ((!ok || ring.size() - head == kInflight) && head < ring.size())
                                chain.leaf.uncharge(ring[head++]);
                        }
                        while (head < ring.size())
                            chain.leaf.uncharge(ring[head++]);
                    });

    std::array<std::uint64_t, 4> total{};
    std::uint64_t all_successes = 0;
    for (unsigned t = 0; t < threads(); ++t) {
        std::uint64_t mine = 0;
        for (std::size_t l = 0; l < 4; ++l) {
            total[l] += fails[t][l];
            mine += fails[t][l];
        }
        EXPECT_GT(mine, 0u) << "thread " << t << " never hit a limit";
        all_successes += successes[t]; // a thread may starve: page_counter is not fair
    }
    EXPECT_GT(all_successes, 0u); // the first add to mid ever sees at most 8 pages
    const std::array<std::int64_t, 4> max{40, 32, kPageCounterMax, kPageCounterMax};
    for (std::size_t l = 0; l < 4; ++l) {
        const PageCounter& c = *levels[l];
        SCOPED_TRACE(chain.registry.at(c.object().id()).name);
        EXPECT_EQ(c.usage(), 0);
        EXPECT_LE(c.watermark(), max[l]); // only a charge that passed the check sets it
        EXPECT_GT(c.watermark(), 0);
        if (&c == &chain.mid && version().semantics.v6_15_fields) {
            EXPECT_EQ(c.failcnt(), 0u);
            continue;
        }
        // failcnt++ is racy: it can lose increments, never invent them.
        EXPECT_LE(c.failcnt(), total[l]);
        if (total[l] == 0) {
            EXPECT_EQ(c.failcnt(), 0u);
        } else {
            EXPECT_GE(c.failcnt(), 1u);
        }
    }
    EXPECT_EQ(total[2], 0u); // top and root have no limit
    EXPECT_EQ(total[3], 0u);
    EXPECT_GT(total[0] + total[1], 0u);
    // Live charges that passed mid sum to at most 32; root can also still count pages an
    // uncharge has already taken off mid (at most one 8-page uncharge in flight per thread).
    EXPECT_LE(chain.root.watermark(), 32 + static_cast<std::int64_t>(threads()) * kMaxPages);
}

INSTANTIATE_TEST_SUITE_P(Threads, ConcurrentCharge,
                         ::testing::Combine(::testing::ValuesIn(testing::pc_versions()),
                                            ::testing::Values(2u, 4u, 8u)),
                         param_name);

// The same invariants single-threaded, where failcnt and watermark are exact.
TEST(SerialCharge, FailcntAndWatermarkExact) {
    for (const PcVersion& v : testing::pc_versions()) {
        SCOPED_TRACE(v.name);
        testing::Chain chain(v);
        chain.leaf.set_limits(0, 0, kPageCounterMax, 40);
        chain.mid.set_limits(0, 0, kPageCounterMax, 32);
        std::uint64_t mid_fails = 0, leaf_fails = 0;
        std::int64_t seen = 0;
        std::vector<std::int64_t> ring;
        std::size_t head = 0;
        for (std::uint64_t i = 0; i < 1000; ++i) {
            const std::int64_t pages = 1 + static_cast<std::int64_t>(i % kMaxPages);
            PageCounter* fail = nullptr;
            const bool ok = chain.leaf.try_charge(pages, &fail);
            if (ok)
                ring.push_back(pages);
            else
                ++(fail == &chain.mid ? mid_fails : leaf_fails);
            seen = std::max(seen, chain.root.usage());
            EXPECT_LE(chain.mid.usage(), 32);
            if ((!ok || ring.size() - head == kInflight) && head < ring.size())
                chain.leaf.uncharge(ring[head++]);
        }
        EXPECT_EQ(leaf_fails, 0u); // mid (32) always refuses first
        EXPECT_GT(mid_fails, 0u);
        EXPECT_EQ(chain.mid.failcnt(), mid_fails);
        EXPECT_EQ(chain.leaf.failcnt(), 0u);
        EXPECT_EQ(chain.root.watermark(), seen);
        EXPECT_EQ(chain.top.watermark(), seen);
        EXPECT_EQ(chain.mid.watermark(), seen);
        EXPECT_EQ(seen, 32); // the 12th charge: 28 held + 4 = exactly mid's max
        // The leaf's watermark also counts charges that mid then refused (it is updated
        // before the walk moves up): 32 held + 8 = 40, the leaf's own max.
        EXPECT_EQ(chain.leaf.watermark(), 40);
        EXPECT_EQ(mid_fails, 497u); // the sequence is deterministic
    }
}

} // namespace
} // namespace hitmap::engine
