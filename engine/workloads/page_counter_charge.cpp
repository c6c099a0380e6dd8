#include "engine/workloads/page_counter_charge.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/memcg/charge_stock.hpp"
#include "engine/runtime/busy_work.hpp"
#include "engine/workloads/socket_charge_walk.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::engine {

// Shakeel Butt's "memcg: optimize charge codepath" (Aug 2022), each patch alone on 6.0-rc1 and
// together: 1 "mm: page_counter: remove unneeded atomic ops for low/min", 2 "mm: page_counter:
// rearrange struct page_counter fields", 3 "memcg: increase MEMCG_CHARGE_BATCH to 64".
const std::vector<PageCounterChargeVariant>& PageCounterChargeWorkload::variants() {
    using P = ProtectionPropagation;
    static const std::vector<PageCounterChargeVariant> all{
        {"v6.0",
         "6.0-rc1: unconditional xchg of min_usage/low_usage, unpadded page_counter "
         "(memory at +0xd0 in mem_cgroup), batch 32",
         P::always_exchange, false, "v6.0", "v6.0", 32, false},
        {"v6.0+p1", "6.0-rc1 + patch 1 alone: xchg only when the protected usage changes",
         P::on_change, false, "v6.0", "v6.0", 32, false},
        {"v6.0+p2",
         "6.0-rc1 + patch 2 alone: page_counter fields on three cachelines (layout "
         "only)",
         P::always_exchange, false, "v6.0", "v6.1", 32, false},
        {"v6.0+p3", "6.0-rc1 + patch 3 alone: MEMCG_CHARGE_BATCH 64", P::always_exchange, false,
         "v6.0", "v6.0", 64, false},
        {"v6.0+p1-2", "6.0-rc1 + patches 1 and 2", P::on_change, false, "v6.0", "v6.1", 32, false},
        {"v6.1", "v6.1 as released: all three patches", P::on_change, false, "v6.1", "v6.1", 64,
         false},
        {"v6.15", "today: protection_support, local_watermark, track_failcnt", P::on_change, true,
         "v6.15", "v6.15", 64, true},
    };
    return all;
}

PageCounterChargeWorkload::PageCounterChargeWorkload() {
    info_.name = "page-counter-charge";
    info_.seed = "001";
    info_.layout_structs = {"mem_cgroup", "page_counter"};
    // Shakeel Butt's netperf runs were on a 72-CPU two-socket machine; the three variants are
    // the regression, the layout patch alone and the merged series.
    info_.seed_machine = SeedMachine{"xeon-2s-72", 72, {"v6.0", "v6.0+p2", "v6.1"}};
    // The regression and the merged series, and the line shakeel_2022's cause names (the one
    // holding memory.usage) in the struct whose fields patch 2 rearranged.
    info_.story = Story{"v6.0", "v6.1", "page_counter", "memory.usage"};
    info_.description = "netperf-like socket-memory charging through per-CPU stocks into a "
                        "3-level memcg hierarchy with memory.min/low set on the top level";
    for (const auto& v : variants())
        info_.variants.push_back({v.name, v.description});
    info_.params = {
        {"batch", 0u, "charge batch in pages (0 = the variant's MEMCG_CHARGE_BATCH)", 0, 4096},
        {"depth", 3u, "memcg levels below the root", 1, 16},
        {"phase", 0u, "start offset of each struct mem_cgroup modulo 64 (multiple of 8)", 0, 56},
        {"max_pages", 8u, "pages per charge are uniform in 1..max_pages (skb sizes)", 1, 4096},
        {"inflight", 64u, "charges a thread holds before it must uncharge the oldest", 1, 65536},
        {"top_min", 16u, "memory.min of the top level, in pages", 0, kMaxPages},
        {"top_low", 32u, "memory.low of the top level, in pages", 0, kMaxPages},
        {"leaf_max", 0u, "memory.max of the leaf in pages (0 = unlimited)", 0, kMaxPages},
        {"pressure_checks", 1u,
         "mem_cgroup_under_socket_pressure() walks per uncharge (v6.0 TCP asks on every "
         "__sk_mem_reduce_allocated)",
         0, 64},
        {"stats", true, "mod_memcg_state(MEMCG_SOCK) on every charge and uncharge"},
        {"work_ns", 0u,
         "other work per operation outside memcg, in ns (the rest of a netperf send; seed 001's "
         "10 Gbit/s of 10 KiB messages per instance is 7.8 us per message)",
         0, kMaxWorkNs},
    };
}

const PageCounterChargeVariant& PageCounterChargeWorkload::variant(std::string_view name) {
    const auto& all = variants();
    return *std::find_if(all.begin(), all.end(), [&](const auto& v) { return v.name == name; });
}

Layout PageCounterChargeWorkload::mem_cgroup_layout(const WorkloadRunConfig& config,
                                                    const PageCounterChargeVariant& variant) {
    const Layout recorded =
        compose_mem_cgroup(variant.shape, *find_builtin_layout("page_counter", variant.layout));
    return layout_under(recorded, config.layouts).value_or(recorded);
}

void PageCounterChargeWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const nlohmann::json p = resolve_params(config);
    if (p["phase"].get<unsigned>() % 8 != 0)
        throw WorkloadError("phase must be a multiple of 8 below 64");
    // Builds one memcg so a layout lacking a field the variant needs fails now.
    ObjectRegistry scratch;
    const auto& variant = PageCounterChargeWorkload::variant(config.variant);
    MemCgroup probe(scratch, "check", nullptr, mem_cgroup_layout(config, variant), 0,
                    {variant.propagation, variant.v6_15_fields});
}

HierarchyConfig PageCounterChargeWorkload::hierarchy_config(const nlohmann::json& params) {
    HierarchyConfig hc;
    hc.depth = params["depth"].get<unsigned>();
    hc.phase = params["phase"].get<unsigned>();
    hc.top_min = params["top_min"].get<unsigned>();
    hc.top_low = params["top_low"].get<unsigned>();
    return hc;
}

WorkloadResult PageCounterChargeWorkload::run(const WorkloadRunConfig& config,
                                              const ThreadHooks& hooks) const {
    validate(config);
    const auto& variant = PageCounterChargeWorkload::variant(config.variant);
    const nlohmann::json p = resolve_params(config);
    const Layout layout = mem_cgroup_layout(config, variant);
    const unsigned batch = p["batch"].get<unsigned>() ? p["batch"].get<unsigned>() : variant.batch;
    const unsigned max_pages = p["max_pages"].get<unsigned>();
    const unsigned inflight = p["inflight"].get<unsigned>();
    const unsigned pressure_checks = p["pressure_checks"].get<unsigned>();
    const BusyWork work{std::chrono::nanoseconds(p["work_ns"].get<unsigned>())};

    WorkloadResult result;
    HierarchyConfig hc = hierarchy_config(p);
    if (const auto leaf_max = p["leaf_max"].get<unsigned>())
        hc.leaf_max = leaf_max;
    MemcgHierarchy tree(result.objects, layout, {variant.propagation, variant.v6_15_fields}, hc);

    const Layout& stock_layout = *find_builtin_layout("memcg_stock_pcp", "v5.10");
    std::vector<std::unique_ptr<ChargeStock>> stocks;
    for (unsigned t = 0; t < config.threads; ++t)
        stocks.push_back(std::make_unique<ChargeStock>(result.objects, fmt::format("stock/{}", t),
                                                       stock_layout, batch));
    MemcgStatsGlobal stats_global(result.objects);
    std::vector<std::unique_ptr<MemcgStatsCpu>> stats;
    if (p["stats"].get<bool>())
        for (unsigned t = 0; t < config.threads; ++t)
            stats.push_back(std::make_unique<MemcgStatsCpu>(
                result.objects, fmt::format("vmstats/{}", t), stats_global,
                MemcgStatsCpu::Config{batch, config.threads, variant.stats_read_first}));
    std::vector<ChargeCounters> counters(config.threads);
    MemCgroup& leaf = tree.leaf();

    run_workers(config, hooks, result,
                [&](unsigned slot, const std::atomic<bool>& stop, TraceBuffer* trace) {
                    MemcgCharger charger(*stocks[slot], counters[slot],
                                         stats.empty() ? nullptr : stats[slot].get());
                    SocketChargeWalk socket(charger, leaf, max_pages, inflight,
                                            0x9E3779B97F4A7C15ull * (slot + 1), pressure_checks);
                    const std::uint64_t ops = counted_loop(config, stop, trace, [&](auto traced) {
                        socket.step<decltype(traced)::value>();
                        work.run();
                    });
                    // Give back what is still held, outside the counted operations.
                    OutsideMeasurement untraced;
                    socket.release_all();
                    stocks[slot]->drain();
                    return ops;
                });

    for (unsigned t = 0; t < config.threads; ++t)
        result.ops += result.ops_per_thread[t];
    ChargeCounters total;
    for (const auto& c : counters)
        total += c;
    result.resolved_params = p;
    result.resolved_params["batch"] = batch;
    result.resolved_params["layout.mem_cgroup"] = layout.version;
    // The code differences too, so runs that differ only in layout can be matched by params.
    result.resolved_params["propagation"] =
        variant.propagation == ProtectionPropagation::always_exchange ? "always_exchange"
                                                                      : "on_change";
    result.resolved_params["v6_15_fields"] = variant.v6_15_fields;
    result.stats = {{"stock_hits", total.stock_hits},
                    {"counter_charges", total.counter_charges},
                    {"charge_failures", total.failures},
                    {"over_high", total.over_high},
                    {"final_root_usage", tree.root().memory().usage()},
                    {"stats_flush_threshold", stats_global.flush_threshold()}};
    return result;
}

} // namespace hitmap::engine
