// The res-counter-charge workload (seed 003): its description, parameter validation, and what
// a run returns: ops, stats, the "&counter->lock" class report, traces when asked for.
#include "engine/memcg/res_memcg.hpp"
#include "engine/workloads/res_counter_charge.hpp"
#include "tests/engine/workload_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <set>

namespace hitmap::engine {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const Workload& res_counter_workload() {
    return find_workload("res-counter-charge");
}

using workload_test::config_for;

std::string res_counter_validate_error(const WorkloadRunConfig& c) {
    return workload_test::validate_error(res_counter_workload(), c);
}

const LockClassReport& counter_lock(const WorkloadResult& r) {
    EXPECT_EQ(r.locks.size(), 1u);
    return r.locks.at(0);
}

std::uint64_t stat(const WorkloadResult& r, const char* name) {
    return r.stats.at(name).get<std::uint64_t>();
}

TEST(ResCounterChargeWorkload, Info) {
    const WorkloadInfo& info = res_counter_workload().info();
    EXPECT_EQ(info.name, "res-counter-charge");
    EXPECT_EQ(info.seed, "003");
    EXPECT_TRUE(info.probed); // struct res_counter and the css are probed objects
    ASSERT_EQ(info.variants.size(), 2u);
    EXPECT_EQ(info.variants[0].name, "per-page");
    EXPECT_EQ(info.variants[1].name, "precharge");
    std::map<std::string, json> params;
    for (const auto& p : info.params)
        params[p.name] = p.default_value;
    // 2.6.31's defaults: no swap accounting, no hierarchy, the x86 ticket lock; NR_CPUS 64.
    EXPECT_EQ(params.at("nr_cpus"), 64);
    EXPECT_EQ(params.at("swap_account"), false);
    EXPECT_EQ(params.at("use_hierarchy"), false);
    EXPECT_EQ(params.at("lock"), "ticket");
    // Unmap batches of ZAP_BLOCK_SIZE (CONFIG_PREEMPT: 8 pages); no work besides the charge path
    // and the zeroing unless a run asks for it.
    EXPECT_EQ(params.at("preempt"), true);
    EXPECT_EQ(params.at("work_ns"), 0);
}

TEST(ResCounterChargeWorkload, ValidatesParams) {
    WorkloadRunConfig c = config_for("per-page", 1, 10);
    EXPECT_EQ(res_counter_validate_error(c), "");
    c.params = {{"depth", 0}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("depth"));
    c.params = {{"nr_cpus", 0}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("nr_cpus"));
    c.params = {{"inflight", 0}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("inflight"));
    c.params = {{"work_ns", -1}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("work_ns"));
    c.params = {{"lock", "mcs"}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("lock 'mcs'"));
    c.params = {{"limit_pages", 0}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("limit_pages"));
    c.params = {{"nope", 1}};
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("unknown parameter 'nope'"));
    c = config_for("per-cpu", 1, 10);
    EXPECT_THAT(res_counter_validate_error(c), HasSubstr("unknown variant 'per-cpu'"));
}

// One thread, 1000 pages, 64 in flight: every page is one charge and, by the end, one uncharge,
// each taking the memcg's one lock (no hierarchy, no swap accounting).
TEST(ResCounterChargeWorkload, PerPageTakesTheLockPerPage) {
    const WorkloadResult r = res_counter_workload().run(config_for("per-page", 1, 1000), {});
    EXPECT_EQ(r.ops, 1000u);
    EXPECT_EQ(stat(r, "counter_charges"), 1000u);
    EXPECT_EQ(stat(r, "counter_uncharges"), 1000u);
    EXPECT_EQ(stat(r, "precharge_hits"), 0u);
    EXPECT_EQ(stat(r, "batched_pages"), 0u);
    EXPECT_EQ(stat(r, "final_usage"), 0u);
    EXPECT_EQ(stat(r, "final_css_refcnt"), 0u);
    EXPECT_EQ(stat(r, "memcg_max_usage"), 64 * kPageSize);
    EXPECT_EQ(r.resolved_params.at("charge_size_pages"), 1);
    const LockClassReport& lock = counter_lock(r);
    EXPECT_EQ(lock.name, "&counter->lock");
    EXPECT_EQ(lock.kind, "spinlock");
    EXPECT_EQ(lock.acquisitions, 1000u + 1000u);
    EXPECT_EQ(lock.contentions, 0u);
}

// CHARGE_SIZE 12 pages at NR_CPUS 64: ceil(1000 / 12) charges. The task maps 64 pages and then
// unmaps them in unmap_page_range() calls of 8 pages each (CONFIG_PREEMPT), one res_counter
// uncharge per call: 15 unmaps of 64 pages during the 1,000 faults (960 pages, 120 calls), and
// the 40 pages left at the end one by one, outside the batches.
TEST(ResCounterChargeWorkload, PrechargeChargesCHARGE_SIZEAtOnceAndUnmapUnchargesPerZapBlock) {
    const WorkloadResult r = res_counter_workload().run(config_for("precharge", 1, 1000), {});
    EXPECT_EQ(r.ops, 1000u);
    EXPECT_EQ(r.resolved_params.at("charge_size_pages"), 12);
    EXPECT_EQ(stat(r, "counter_charges"), 84u);
    EXPECT_EQ(stat(r, "precharge_hits"), 1000u - 84u);
    EXPECT_EQ(stat(r, "batched_pages"), 960u);
    // 120 batches, 40 single pages, and the drain of the 8 precharged pages left over.
    EXPECT_EQ(stat(r, "counter_uncharges"), 120u + 40u + 1u);
    EXPECT_EQ(stat(r, "final_usage"), 0u);
    EXPECT_EQ(stat(r, "final_css_refcnt"), 0u);
    EXPECT_EQ(counter_lock(r).acquisitions,
              stat(r, "counter_charges") + stat(r, "counter_uncharges"));
    WorkloadRunConfig big = config_for("precharge", 1, 1000);
    big.params = {{"nr_cpus", 4096}};
    EXPECT_EQ(res_counter_workload().run(big, {}).resolved_params.at("charge_size_pages"), 516);
    // Without CONFIG_PREEMPT one call zaps up to 1,024 pages: one uncharge per unmap.
    WorkloadRunConfig no_preempt = config_for("precharge", 1, 1000);
    no_preempt.params = {{"preempt", false}};
    const WorkloadResult n = res_counter_workload().run(no_preempt, {});
    EXPECT_EQ(stat(n, "batched_pages"), 960u);
    EXPECT_EQ(stat(n, "counter_uncharges"), 15u + 40u + 1u);
}

TEST(ResCounterChargeWorkload, NeverAboveALowLimit) {
    for (const char* variant : {"per-page", "precharge"}) {
        SCOPED_TRACE(variant);
        WorkloadRunConfig c = config_for(variant, 2, 5000);
        c.params = {{"limit_pages", 100}, {"depth", 3}, {"use_hierarchy", true}};
        const WorkloadResult r = res_counter_workload().run(c, {});
        EXPECT_EQ(r.ops, 10000u);
        EXPECT_LE(stat(r, "memcg_max_usage"), 100 * kPageSize);
        EXPECT_EQ(stat(r, "final_usage"), 0u);
        EXPECT_EQ(stat(r, "memcg_failcnt"), stat(r, "charge_refusals"));
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
    const WorkloadResult r = res_counter_workload().run(c, {});
    EXPECT_EQ(stat(r, "page_failures"), 1000u - 40u);
    EXPECT_EQ(stat(r, "memcg_failcnt"), 1000u - 40u);
    EXPECT_EQ(stat(r, "memcg_max_usage"), 40 * kPageSize);
    EXPECT_EQ(stat(r, "final_usage"), 0u);
}

TEST(ResCounterChargeWorkload, TwoThreadsReportTheLockClass) {
    for (const char* lock_kind : {"ticket", "tas"})
        for (const char* variant : {"per-page", "precharge"}) {
            SCOPED_TRACE(std::string(variant) + " " + lock_kind);
            WorkloadRunConfig c = config_for(variant, 2, 20000);
            c.params = {{"lock", lock_kind}, {"swap_account", true}};
            const WorkloadResult r = res_counter_workload().run(c, {});
            EXPECT_EQ(r.ops, 40000u);
            EXPECT_EQ(r.ops_per_thread, (std::vector<std::uint64_t>{20000, 20000}));
            EXPECT_EQ(stat(r, "final_usage"), 0u);
            EXPECT_EQ(stat(r, "page_failures"), 0u);
            const LockClassReport& lock = counter_lock(r);
            // res and memsw: two locks of the class per call
            EXPECT_EQ(lock.acquisitions,
                      2u * (stat(r, "counter_charges") + stat(r, "counter_uncharges")));
            EXPECT_LE(lock.contention_points.size(), 4u);
            for (const auto& p : lock.contention_points)
                EXPECT_THAT(p.location, HasSubstr("engine/memcg/res_counter.cpp:"));
        }
}

// The counters, their lock words and the css reference count are probed: a traced run records
// them, so software c2c can show the lock word's line.
TEST(ResCounterChargeWorkload, TracedRunRecordsTheCountersAndTheCss) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    WorkloadRunConfig c = config_for("precharge", 2, 3000);
    c.trace = TraceOptions{true, 1 << 16, {}};
    const WorkloadResult r = res_counter_workload().run(c, {});
    ASSERT_EQ(r.traces.size(), 2u);
    std::set<std::string> names;
    for (const auto& t : r.traces)
        for (const TraceRecord& rec : t.buffer->records())
            names.insert(r.objects.at(rec.object).name);
    EXPECT_EQ(names, (std::set<std::string>{"memcg/css", "memcg/res"}));
    EXPECT_EQ(r.ops, 6000u);
}

TEST(ResCounterChargeWorkload, StopsAfterADuration) {
    WorkloadRunConfig c;
    c.variant = "per-page";
    c.threads = 2;
    c.stop.duration = std::chrono::milliseconds(50);
    const WorkloadResult r = res_counter_workload().run(c, {});
    EXPECT_GT(r.ops, 0u);
    EXPECT_EQ(stat(r, "final_usage"), 0u);
    EXPECT_GT(counter_lock(r).acquisitions, 0u);
}

} // namespace
} // namespace hitmap::engine
