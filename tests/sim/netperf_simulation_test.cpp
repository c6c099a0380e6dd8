// The netperf workload (issue 34) on the simulated machine with a uniform calibration: what it
// charges where follows from the kernel paths it models, whatever the host. Exact.
#include "collector/run/simulated_run.hpp"

#include <gtest/gtest.h>

namespace hitmap::collector {
namespace {

SimulatedRun netperf(const std::string& variant, unsigned threads, nlohmann::json params,
                     const std::string& machine = "xeon-2s-72") {
    engine::WorkloadRunConfig config;
    config.variant = variant;
    config.threads = threads;
    config.stop.iterations = 300;
    config.params = std::move(params);
    return run_simulated(engine::find_workload("netperf"), config, sim::find_machine(machine),
                         sim::uniform_calibration(5));
}

std::uint64_t stat(const SimulatedRun& run, const char* name) {
    return run.result.stats.at(name).get<std::uint64_t>();
}

// Sockets in the root cgroup are never charged: no page_counter walk, no stock.
TEST(NetperfSimulation, RootCgroupChargesNothing) {
    const SimulatedRun root = netperf("root", 8, {{"work_ns", 1000}});
    EXPECT_EQ(root.result.ops, 4u * 300u); // four pairs, every message delivered
    EXPECT_EQ(stat(root, "pages_charged"), 0u);
    EXPECT_EQ(stat(root, "counter_charges"), 0u);
    EXPECT_EQ(stat(root, "stock_hits"), 0u);
}

// 10 KiB messages charge 2.5 pages per socket on average; each message is charged on the
// sender's CPU for both sockets and given back on the receiver's, so each CPU's stock flows one
// way: the senders' drain into the page_counter one batch at a time and never fill.
TEST(NetperfSimulation, EachCpuStockFlowsOneWay) {
    const SimulatedRun v60 = netperf("v6.0", 8, {{"work_ns", 1000}});
    EXPECT_EQ(v60.result.ops, 1200u);
    // 1,200 messages x 2 sockets x 2.5 to 3 pages (a socket whose forward allocation was
    // given back whole charges 3), all given back by the end.
    EXPECT_GE(stat(v60, "pages_charged"), 6000u);
    EXPECT_LE(stat(v60, "pages_charged"), 7200u);
    EXPECT_EQ(stat(v60, "pages_uncharged"), stat(v60, "pages_charged"));
    // A sender's stock serves 32 pages per walk of the page_counters (5 to 6 pages a message),
    // and never refills from an uncharge.
    const std::uint64_t walks = stat(v60, "counter_charges");
    EXPECT_GE(walks, stat(v60, "pages_charged") / 35);
    EXPECT_LE(walks, stat(v60, "pages_charged") / 28);
    EXPECT_EQ(stat(v60, "final_root_usage"), 0u); // everything given back at the end
    // Patch 3 (batch 64) halves the walks.
    const SimulatedRun p3 = netperf("v6.0+p3", 8, {{"work_ns", 1000}});
    EXPECT_LE(stat(p3, "counter_charges"), walks / 2 + 4);
}

// netperf's sockets in one memcg, netserver's in another: every CPU charges both, so a stock
// caching one memcg is drained at every switch; two slots keep both.
TEST(NetperfSimulation, TwoStockSlotsKeepTwoMemcgsCached) {
    const nlohmann::json two = {{"work_ns", 1000}, {"memcgs", 2}};
    nlohmann::json two_slots = two;
    two_slots["stock_slots"] = 2;
    const SimulatedRun one = netperf("v6.1", 8, two);
    const SimulatedRun both = netperf("v6.1", 8, two_slots);
    EXPECT_LT(stat(one, "stock_hits"), stat(both, "stock_hits") / 4);
    EXPECT_GT(stat(one, "counter_charges"), 4 * stat(both, "counter_charges"));
    EXPECT_GT(both.result.ops / both.result.seconds, one.result.ops / one.result.seconds);
}

// 6.0-rc1's minimal reserve gives every whole page back as soon as an skb frees it, so the next
// 10 KiB message charges 3 pages where a socket that kept a page charges 2.
TEST(NetperfSimulation, CachedForwardAllocationChargesLess) {
    const SimulatedRun minimal = netperf("v6.0", 8, {{"work_ns", 1000}});
    const SimulatedRun kept = netperf("v6.0", 8, {{"work_ns", 1000}, {"forward_alloc", "cached"}});
    EXPECT_LT(stat(kept, "pages_charged"), stat(minimal, "pages_charged"));
    EXPECT_LT(stat(kept, "counter_charges"), stat(minimal, "counter_charges"));
}

// The 144-CPU machine runs 72 pairs.
TEST(NetperfSimulation, RunsSeventyTwoPairsOnTheFourSocketMachine) {
    const SimulatedRun run = netperf("v6.1", 144, {{"work_ns", 1000}}, "cooperlake-4s-144");
    EXPECT_EQ(run.result.ops, 72u * 300u);
    // Bytes an ACK gave back are reused before a page is charged, so fewer than 2.5 pages per
    // socket and message are charged; every one is given back.
    EXPECT_GE(stat(run, "pages_charged"), 72u * 300u * 4u);
    EXPECT_LE(stat(run, "pages_charged"), 72u * 300u * 6u);
    EXPECT_EQ(stat(run, "pages_uncharged"), stat(run, "pages_charged"));
}

} // namespace
} // namespace hitmap::collector
