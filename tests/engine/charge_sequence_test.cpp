// The accesses of one socket charge and one uncharge, field by field and in order, written out
// by hand from the kernel code paths (v6.0: mm/memcontrol.c try_charge_memcg(),
// consume_stock(), refill_stock(), mem_cgroup_charge_skmem(), mod_memcg_state(),
// memcg_rstat_updated(); mm/page_counter.c page_counter_try_charge(),
// propagate_protected_usage(); include/linux/memcontrol.h mem_cgroup_under_socket_pressure();
// patch 1 of the 2022 series for the read-before-xchg). One level under the root keeps the
// lists short; the leaf has memory.min 16 and memory.low 32, as the top level of seed 001 does.
#include "engine/memcg/charge_stock.hpp"
#include "engine/memcg/memcg_stats.hpp"
#include "engine/probe/trace_buffer.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace hitmap::engine {
namespace {

struct Path {
    explicit Path(PageCounterSemantics semantics, const Layout& layout)
        : tree(registry, layout, semantics, config())
        , stock(registry, "stock/0", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 32)
        , global(registry)
        , stats(registry, "vmstats/0", global, {32, 2, false})
        , charger(stock, counters, &stats) {}

    static HierarchyConfig config() {
        HierarchyConfig c;
        c.depth = 1;
        c.top_min = 16;
        c.top_low = 32;
        return c;
    }

    // "object field kind site" per record of `op`.
    template <typename Op> std::vector<std::string> accesses(Op op) {
        TraceBuffer buffer(1 << 12, TraceBuffer::read_tsc());
        {
            ThreadTraceScope scope(&buffer);
            op();
            buffer.end_operation(); // commits the operation's records
        }
        std::vector<std::string> out;
        for (const TraceRecord& r : buffer.records()) {
            const ObjectInfo& o = registry.at(r.object);
            out.push_back(fmt::format("{} {} {} {}", o.name, o.layout.field_name(r.field),
                                      to_string(r.kind()), site_name(r.site)));
        }
        return out;
    }

    ObjectRegistry registry;
    MemcgHierarchy tree;
    ChargeStock stock;
    MemcgStatsGlobal global;
    MemcgStatsCpu stats;
    ChargeCounters counters;
    MemcgCharger charger;
};

// A charge of 4 pages with an empty stock: the stock misses, a batch of 32 is charged to each
// level, 28 go to the stock, the high check walks to the root, the statistics are updated, and
// TCP asks once whether the socket's memcg is under pressure.
std::vector<std::string> first_charge_v6_0() {
    return {
        "stock/0 cached load consume_stock",
        // leaf: page_counter_try_charge()
        "leaf memory.usage rmw page_counter_try_charge",
        "leaf memory.max load page_counter_try_charge",
        "leaf memory.parent load propagate_protected_usage",
        "leaf memory.min load propagate_protected_usage",
        "leaf memory.min_usage rmw propagate_protected_usage", // v6.0: xchg every time
        "root memory.children_min_usage rmw propagate_protected_usage",
        "leaf memory.low load propagate_protected_usage",
        "leaf memory.low_usage rmw propagate_protected_usage",
        "root memory.children_low_usage rmw propagate_protected_usage",
        "leaf memory.watermark load page_counter_try_charge",
        "leaf memory.watermark store page_counter_try_charge",
        "leaf memory.parent load page_counter_try_charge",
        // root
        "root memory.usage rmw page_counter_try_charge",
        "root memory.max load page_counter_try_charge",
        "root memory.parent load propagate_protected_usage",
        "root memory.watermark load page_counter_try_charge",
        "root memory.watermark store page_counter_try_charge",
        "root memory.parent load page_counter_try_charge",
        // refill_stock(leaf, 28): another memcg was cached (none), so drain and take it
        "stock/0 cached load refill_stock",
        "stock/0 cached load drain_stock",
        "stock/0 cached store refill_stock",
        "stock/0 nr_pages load refill_stock",
        "stock/0 nr_pages store refill_stock",
        // the high check, per level up to the root
        "leaf memory.usage load try_charge_memcg.high_check",
        "leaf memory.high load try_charge_memcg.high_check",
        "leaf swap.usage load try_charge_memcg.high_check",
        "leaf swap.high load try_charge_memcg.high_check",
        "leaf css.parent load try_charge_memcg.high_check",
        "root memory.usage load try_charge_memcg.high_check",
        "root memory.high load try_charge_memcg.high_check",
        "root swap.usage load try_charge_memcg.high_check",
        "root swap.high load try_charge_memcg.high_check",
        "root css.parent load try_charge_memcg.high_check",
        // mod_memcg_state(leaf, MEMCG_SOCK, 4)
        "leaf vmstats_percpu load mod_memcg_state",
        "vmstats/0 vmstats_percpu.state[MEMCG_SOCK] rmw mod_memcg_state",
        "leaf css.cgroup load memcg_rstat_updated",
        "vmstats/0 rstat_cpu.updated_next load memcg_rstat_updated",
        "vmstats/0 rstat_cpu.updated_next store memcg_rstat_updated",
        "vmstats/0 stats_updates rmw memcg_rstat_updated",
        // sk_under_memory_pressure() -> mem_cgroup_under_socket_pressure()
        "leaf socket_pressure load mem_cgroup_under_socket_pressure",
        "leaf css.parent load mem_cgroup_under_socket_pressure",
        "root socket_pressure load mem_cgroup_under_socket_pressure",
        "root css.parent load mem_cgroup_under_socket_pressure",
    };
}

// The v6.0 code's first charge and pressure walk under `layout`.
std::vector<std::string> first_charge(const Layout& layout) {
    Path path({ProtectionPropagation::always_exchange, false}, layout);
    MemCgroup& leaf = path.tree.leaf();
    return path.accesses([&] {
        EXPECT_TRUE(path.charger.charge_skmem(leaf, 4));
        leaf.under_socket_pressure();
    });
}

TEST(ChargeSequence, FirstSocketChargeV6_0) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    EXPECT_EQ(first_charge(*find_builtin_layout("mem_cgroup", "v6.0")), first_charge_v6_0());
}

// Patch 2 moves fields, not accesses: the same sequence under the padded counter.
TEST(ChargeSequence, PatchTwoAloneKeepsTheSequence) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    EXPECT_EQ(
        first_charge(compose_mem_cgroup("v6.0", *find_builtin_layout("page_counter", "v6.1"))),
        first_charge_v6_0());
}

// Patch 1: the protected usage is read first; the xchg and the parent's add happen only when
// it changes. The second charge of the same 32 pages changes nothing, so it only reads.
TEST(ChargeSequence, PatchOneReadsBeforeTheExchange) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    Path path({ProtectionPropagation::on_change, false},
              *find_builtin_layout("mem_cgroup", "v6.0"));
    MemCgroup& leaf = path.tree.leaf();
    const auto first = path.accesses([&] { ASSERT_TRUE(path.charger.try_charge(leaf, 32)); });
    const auto has = [](const std::vector<std::string>& seq, const std::string& a) {
        return std::find(seq.begin(), seq.end(), a) != seq.end();
    };
    EXPECT_TRUE(has(first, "leaf memory.min_usage load propagate_protected_usage"));
    EXPECT_TRUE(has(first, "leaf memory.min_usage rmw propagate_protected_usage"));
    // Usage 32 -> 64 keeps min(usage, 16) = 16 and min(usage, 32) = 32: no exchange.
    const auto second = path.accesses([&] { ASSERT_TRUE(path.charger.try_charge(leaf, 32)); });
    EXPECT_TRUE(has(second, "leaf memory.min_usage load propagate_protected_usage"));
    EXPECT_FALSE(has(second, "leaf memory.min_usage rmw propagate_protected_usage"));
    EXPECT_FALSE(has(second, "leaf memory.low_usage rmw propagate_protected_usage"));
    EXPECT_FALSE(has(second, "root memory.children_min_usage rmw propagate_protected_usage"));
}

// An uncharge of 4 pages with 28 in the stock: statistics, then refill_stock() finds its memcg
// cached and keeps the pages (32 is not above the batch); no page_counter is touched.
TEST(ChargeSequence, UnchargeGoesThroughTheStock) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    Path path({ProtectionPropagation::always_exchange, false},
              *find_builtin_layout("mem_cgroup", "v6.0"));
    MemCgroup& leaf = path.tree.leaf();
    ASSERT_TRUE(path.charger.charge_skmem(leaf, 4));
    EXPECT_EQ(path.accesses([&] { path.charger.uncharge_skmem(leaf, 4); }),
              (std::vector<std::string>{
                  "leaf vmstats_percpu load mod_memcg_state",
                  "vmstats/0 vmstats_percpu.state[MEMCG_SOCK] rmw mod_memcg_state",
                  "leaf css.cgroup load memcg_rstat_updated",
                  "vmstats/0 rstat_cpu.updated_next load memcg_rstat_updated",
                  "vmstats/0 stats_updates rmw memcg_rstat_updated",
                  "stock/0 cached load refill_stock",
                  "stock/0 nr_pages load refill_stock",
                  "stock/0 nr_pages store refill_stock",
              }));
    // The next 4 pages take the stock past the batch (36 > 32): it drains all of them back
    // through page_counter_uncharge() at every level.
    const auto drain = path.accesses([&] { path.charger.uncharge_skmem(leaf, 4); });
    EXPECT_NE(std::find(drain.begin(), drain.end(), "root memory.usage rmw page_counter_cancel"),
              drain.end());
}

// Every MEMCG_CHARGE_BATCH updates of a CPU add to the global threshold: patch 3's batch 64
// halves how often the CPUs write that shared line.
TEST(ChargeSequence, ThresholdAddsEveryBatchOfUpdates) {
    for (const unsigned batch : {32u, 64u}) {
        ObjectRegistry registry;
        MemcgHierarchy tree(registry, *find_builtin_layout("mem_cgroup", "v6.0"),
                            {ProtectionPropagation::always_exchange, false}, Path::config());
        MemcgStatsGlobal global(registry);
        MemcgStatsCpu stats(registry, "vmstats/0", global, {batch, 2, false});
        for (int i = 0; i < 640; ++i)
            stats.mod_memcg_state(tree.leaf(), 1); // 640 updates of one page
        EXPECT_EQ(global.flush_threshold(), 640u / (batch + 1)) << batch;
    }
}

} // namespace
} // namespace hitmap::engine
