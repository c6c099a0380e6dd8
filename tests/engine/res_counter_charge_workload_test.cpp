// The res-counter-charge workload (seed 003): its description, parameter validation, and what
// a run returns: ops, stats, the "&counter->lock" class report, traces when asked for.
#include "engine/memcg/res_counter_stock.hpp"
#include "engine/workloads/res_counter_charge.hpp"
#include "tests/engine/workload_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <numeric>

namespace hitmap::engine {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Workload& workload() {
    return find_workload("res-counter-charge");
}

using workload_test::config_for;

std::string validate_error(const WorkloadRunConfig& c) {
    return workload_test::validate_error(workload(), c);
}

const LockClassReport& counter_lock(const WorkloadResult& r) {
    EXPECT_EQ(r.locks.size(), 1u);
    return r.locks.at(0);
}

std::uint64_t stat(const WorkloadResult& r, const char* name) {
    return r.stats.at(name).get<std::uint64_t>();
}

TEST(ResCounterChargeWorkload, Info) {
    const WorkloadInfo& info = workload().info();
    EXPECT_EQ(info.name, "res-counter-charge");
    EXPECT_EQ(info.seed, "003");
    ASSERT_EQ(info.variants.size(), 2u);
    EXPECT_EQ(info.variants[0].name, "per-page");
    EXPECT_EQ(info.variants[1].name, "precharge");
    std::vector<std::string> params;
    for (const auto& p : info.params)
        params.push_back(p.name);
    EXPECT_EQ(params, (std::vector<std::string>{"depth", "batch", "inflight", "limit_pages",
                                                "clear_page"}));
}

TEST(ResCounterChargeWorkload, ValidatesParams) {
    WorkloadRunConfig c = config_for("per-page", 1, 10);
    EXPECT_EQ(validate_error(c), "");
    c.params = {{"depth", 0}};
    EXPECT_THAT(validate_error(c), HasSubstr("depth"));
    c.params = {{"batch", 0}};
    EXPECT_THAT(validate_error(c), HasSubstr("batch"));
    c.params = {{"limit_pages", 0}};
    EXPECT_THAT(validate_error(c), HasSubstr("limit_pages"));
    c.params = {{"nope", 1}};
    EXPECT_THAT(validate_error(c), HasSubstr("unknown parameter 'nope'"));
    c = config_for("per-cpu", 1, 10);
    EXPECT_THAT(validate_error(c), HasSubstr("unknown variant 'per-cpu'"));
}

// One thread, 1000 pages, 64 in flight: every page is one charge and, by the end, one uncharge,
// each taking the lock of both levels.
TEST(ResCounterChargeWorkload, PerPageTakesEveryLevelsLockPerPage) {
    const WorkloadResult r = workload().run(config_for("per-page", 1, 1000), {});
    EXPECT_EQ(r.ops, 1000u);
    EXPECT_EQ(stat(r, "counter_charges"), 1000u);
    EXPECT_EQ(stat(r, "counter_uncharges"), 1000u);
    EXPECT_EQ(stat(r, "stock_hits"), 0u);
    EXPECT_EQ(stat(r, "final_root_usage"), 0u);
    EXPECT_EQ(stat(r, "leaf_max_usage"), 64 * kPageSize);
    EXPECT_EQ(r.resolved_params.at("batch"), 1);
    EXPECT_EQ(r.resolved_params.at("depth"), 2);
    const LockClassReport& lock = counter_lock(r);
    EXPECT_EQ(lock.name, "&counter->lock");
    EXPECT_EQ(lock.kind, "spinlock");
    EXPECT_EQ(lock.acquisitions, 2u * (1000 + 1000));
    EXPECT_EQ(lock.contentions, 0u);
}

TEST(ResCounterChargeWorkload, PrechargeChargesInBatches) {
    const WorkloadResult r = workload().run(config_for("precharge", 1, 1000), {});
    EXPECT_EQ(r.ops, 1000u);
    EXPECT_EQ(stat(r, "counter_charges"), 32u); // ceil(1000 / 32)
    EXPECT_EQ(stat(r, "stock_hits"), 1000u - 32u);
    EXPECT_EQ(stat(r, "counter_uncharges"), 31u + 1u); // 31 batches, then the drain
    EXPECT_EQ(stat(r, "final_root_usage"), 0u);
    EXPECT_EQ(r.resolved_params.at("batch"), 32);
    EXPECT_EQ(counter_lock(r).acquisitions, 2u * (32 + 32));
}

TEST(ResCounterChargeWorkload, NeverAboveALowLimit) {
    for (const char* variant : {"per-page", "precharge"}) {
        SCOPED_TRACE(variant);
        WorkloadRunConfig c = config_for(variant, 2, 5000);
        c.params = {{"limit_pages", 100}, {"depth", 3}};
        const WorkloadResult r = workload().run(c, {});
        EXPECT_EQ(r.ops, 10000u);
        EXPECT_LE(stat(r, "leaf_max_usage"), 100 * kPageSize);
        EXPECT_EQ(stat(r, "final_root_usage"), 0u);
        EXPECT_EQ(stat(r, "leaf_failcnt"), stat(r, "charge_refusals"));
        const LockClassReport& lock = counter_lock(r);
        EXPECT_EQ(lock.wait.count, lock.contentions);
        EXPECT_EQ(
            std::accumulate(lock.wait_log2_ns.begin(), lock.wait_log2_ns.end(), std::uint64_t{0}),
            lock.contentions);
    }
}

// One thread holding at most 40 of its 64 pages: every page past the 40th is refused.
TEST(ResCounterChargeWorkload, FailcntCountsRefusals) {
    WorkloadRunConfig c = config_for("per-page", 1, 1000);
    c.params = {{"limit_pages", 40}};
    const WorkloadResult r = workload().run(c, {});
    EXPECT_EQ(stat(r, "page_failures"), 1000u - 40u);
    EXPECT_EQ(stat(r, "leaf_failcnt"), 1000u - 40u);
    EXPECT_EQ(stat(r, "leaf_max_usage"), 40 * kPageSize);
    EXPECT_EQ(stat(r, "final_root_usage"), 0u);
}

TEST(ResCounterChargeWorkload, TwoThreadsReportTheLockClass) {
    for (const char* variant : {"per-page", "precharge"}) {
        SCOPED_TRACE(variant);
        const WorkloadResult r = workload().run(config_for(variant, 2, 20000), {});
        EXPECT_EQ(r.ops, 40000u);
        EXPECT_EQ(r.ops_per_thread, (std::vector<std::uint64_t>{20000, 20000}));
        EXPECT_EQ(stat(r, "final_root_usage"), 0u);
        EXPECT_EQ(stat(r, "page_failures"), 0u);
        const LockClassReport& lock = counter_lock(r);
        EXPECT_EQ(lock.acquisitions,
                  2u * (stat(r, "counter_charges") + stat(r, "counter_uncharges")));
        EXPECT_LE(lock.contention_points.size(), 4u);
        for (const auto& p : lock.contention_points)
            EXPECT_THAT(p.location, HasSubstr("engine/memcg/res_counter.cpp:"));
    }
}

// res_counter is plain members: nothing for software c2c, which the collector reads from
// info().probed and so never asks this workload for traces.
TEST(ResCounterChargeWorkload, IsNotProbedAndIgnoresTracing) {
    EXPECT_FALSE(workload().info().probed);
    WorkloadRunConfig c = config_for("precharge", 2, 3000);
    c.trace = TraceOptions{true, 1024, {}};
    const WorkloadResult r = workload().run(c, {});
    EXPECT_TRUE(r.traces.empty());
    EXPECT_EQ(r.ops, 6000u);
    EXPECT_EQ(counter_lock(r).name, "&counter->lock");
}

TEST(ResCounterChargeWorkload, StopsAfterADuration) {
    WorkloadRunConfig c;
    c.variant = "per-page";
    c.threads = 2;
    c.stop.duration = std::chrono::milliseconds(50);
    const WorkloadResult r = workload().run(c, {});
    EXPECT_GT(r.ops, 0u);
    EXPECT_EQ(stat(r, "final_root_usage"), 0u);
    EXPECT_GT(counter_lock(r).acquisitions, 0u);
}

} // namespace
} // namespace hitmap::engine
