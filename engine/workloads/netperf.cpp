#include "engine/workloads/netperf.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/memcg/charge_stock.hpp"
#include "engine/runtime/busy_work.hpp"
#include "engine/workloads/message_pipe.hpp"
#include "engine/workloads/page_counter_charge.hpp"
#include "engine/workloads/socket_memory.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::engine {

namespace {

// The other work of a message on each CPU of a pair (the TCP stack, the copy, loopback's
// softirq): the model's one free parameter, anchored on the seed's root-cgroup figure. Set so
// that `root` over `v6.0` at 72 CPUs of xeon-2s-72, 8 ms of virtual time, with the committed
// calibration (measured on a quiet machine, 2026-12-07 13:09 UTC), is the cover letter's +107 %
// (21,694.8 against 10,482.7 Mbps): 1,610 ns gives +107.1 %. Sensitivity: 1,600 ns gives
// +108.9 %, 1,630 ns +105.0 %, 1,680 ns +100.7 %, 1,530 ns +114.4 % (docs/REPRODUCTION.md).
constexpr unsigned kAnchoredWorkNs = 1610;

// Shakeel Butt's netperf figures (36 TCP_SENDFILE pairs on ::1, 72 CPUs, a 3-level hierarchy
// with memory.min/low on the top level): the root cgroup, 6.0-rc1, the layout patch alone and
// the merged series (lore, 2022-08). The other rows have no seed figure: the series' figures
// for the other patches alone are the team's held-out check.
Investigation shakeel_2022() {
    // Simulated only: on this machine's two CPUs one pair is the measured story of
    // page-counter-charge, and real threads handing messages over wait on each other.
    const auto row = [](std::string label, std::string variant, std::optional<double> mbps) {
        // netperf reports a rate over a fixed time: 8 ms of virtual time is about 2,500
        // messages per pair at v6.0's speed.
        RowRun simulated{.variant = variant,
                         .params = {{"work_ns", kAnchoredWorkNs}},
                         .threads = 72,
                         .duration_us = 8000,
                         .quick_duration_us = 1200};
        return SeedRow{std::move(label), {mbps},       std::nullopt,
                       simulated,        std::nullopt, std::nullopt};
    };
    SeedTable t;
    t.title = "netperf TCP_SENDFILE throughput per patch";
    t.figures = {{.column = "throughput",
                  .kind = FigureKind::ops_per_s,
                  .unit = "messages/s",
                  .seed_unit = "Mbps"}};
    t.rows = {row("root cgroup (no memcg charging)", "root", 21694.8),
              row("6.0-rc1", "v6.0", 10482.7),
              row("+ patch 1 (protection xchg on change)", "v6.0+p1", std::nullopt),
              row("+ patch 2 (padded page_counter)", "v6.0+p2", 12413.7),
              row("+ patch 3 (batch 64)", "v6.0+p3", std::nullopt),
              row("+ patches 1-2", "v6.0+p1-2", std::nullopt),
              row("+ patches 1-3 (v6.1)", "v6.1", 20120.3),
              row("v6.15", "v6.15", std::nullopt)};
    t.change = ChangeStyle::percent;
    t.baseline = 1;
    t.machine = "xeon-2s-72";
    t.cause = {CauseKind::hottest_line, {1, 2, 3, 4, 5, 6, 7}, {}, {}};
    t.note = fmt::format(
        "Simulated: 36 pairs on 72 CPUs, 10 KiB messages, {} ns of other work per message on each "
        "CPU (anchored: "
        "root over 6.0-rc1 is the seed's +107 %). The seed's Mbps and our messages/s compare by "
        "their change.",
        kAnchoredWorkNs);
    return {"shakeel-2022",
            "memcg: optimize charge codepath",
            "Shakeel Butt, Aug 2022: netperf on a 72-CPU machine, 6.0-rc1 and the series",
            {t},
            {{Anchor::Kind::parameter, "work_ns",
              fmt::format("{} ns of TCP stack per message on each CPU, set so that root over "
                          "6.0-rc1 is the seed's +107 %",
                          kAnchoredWorkNs),
              0, 0, true}}};
}

const NetperfVariant& netperf_variant(std::string_view name) {
    const auto& all = NetperfWorkload::variants();
    return *std::find_if(all.begin(), all.end(), [&](const auto& v) { return v.name == name; });
}

ReservePolicy reserve_policy(const std::string& name) {
    if (name == "minimal")
        return ReservePolicy::minimal;
    if (name == "cached")
        return ReservePolicy::cached;
    throw WorkloadError(fmt::format("unknown forward_alloc '{}' (minimal or cached)", name));
}

// One CPU's charge stocks: `slots` of them, each caching one memcg, as the per-CPU stock of
// mainline after 6.15 caches several (6.x: one). A memcg no stock caches takes an empty one,
// or evicts them in turn (the evicted one drains).
class CpuStocks {
public:
    CpuStocks(ObjectRegistry& registry, unsigned cpu, unsigned slots, unsigned batch,
              ChargeCounters& counters, MemcgStatsCpu* stats) {
        const Layout& layout = *find_builtin_layout("memcg_stock_pcp", "v5.10");
        for (unsigned i = 0; i < slots; ++i) {
            stocks_.push_back(std::make_unique<ChargeStock>(
                registry,
                slots == 1 ? fmt::format("stock/{}", cpu) : fmt::format("stock/{}/{}", cpu, i),
                layout, batch));
            chargers_.emplace_back(*stocks_.back(), counters, stats);
        }
    }

    MemcgCharger& charger_for(const MemCgroup& memcg) {
        for (std::size_t i = 0; i < stocks_.size(); ++i)
            if (stocks_[i]->cached_memcg() == &memcg)
                return chargers_[i];
        for (std::size_t i = 0; i < stocks_.size(); ++i)
            if (stocks_[i]->cached_memcg() == nullptr)
                return chargers_[i];
        return chargers_[next_victim_++ % chargers_.size()];
    }

    void drain() {
        for (auto& stock : stocks_)
            stock->drain();
    }

private:
    std::vector<std::unique_ptr<ChargeStock>> stocks_;
    std::vector<MemcgCharger> chargers_;
    std::size_t next_victim_ = 0;
};

} // namespace

// 6.0-rc1, each patch of the series alone and together, the release and today, with the
// sockets charged; and the root cgroup, where mem_cgroup_sk_alloc() leaves sk_memcg NULL.
const std::vector<NetperfVariant>& NetperfWorkload::variants() {
    static const std::vector<NetperfVariant> all = [] {
        std::vector<NetperfVariant> v{
            {"root",
             "the sockets in the root cgroup: no memcg charge, no pressure walk (6.0-rc1; "
             "mem_cgroup_sk_alloc() leaves sk_memcg NULL)",
             "v6.0", false, true}};
        for (const PageCounterChargeVariant& k : PageCounterChargeWorkload::variants())
            // sk_under_global_memory_pressure() replaced the memcg walk on reclaim in Aug 2023
            // ("sock: Fix misuse of sk_under_memory_pressure()"), after 6.1, before 6.15.
            v.push_back({k.name, k.description, k.name, true, k.name != "v6.15"});
        return v;
    }();
    return all;
}

NetperfWorkload::NetperfWorkload() {
    info_.name = "netperf";
    info_.seed = "001";
    info_.layout_structs = {"mem_cgroup", "page_counter"};
    info_.investigation = shakeel_2022();
    info_.min_threads = 2;
    info_.even_threads = true;
    info_.description =
        "netperf TCP_SENDFILE over loopback: sender/receiver pairs, one thread per CPU; each "
        "message charged on the sender's CPU (send path, and the receive softirq) and uncharged "
        "on the receiver's (recvmsg, and the ACK), through that CPU's stock";
    for (const auto& v : variants())
        info_.variants.push_back({v.name, v.description});
    info_.params = {
        {"msg_size", 10240u, "bytes per message (netperf -m; the seed: 10K)", 1, 1u << 20},
        {"forward_alloc", "minimal",
         "socket reserve policy: minimal (6.0-rc1: reclaim every free page) or cached (before: "
         "keep up to a page per socket)"},
        {"memcgs", 1u,
         "memcgs the sockets are spread over, each a 3-level hierarchy (min/low on its top); "
         "socket k of the run (netperf's even, netserver's odd) goes to memcg k mod memcgs",
         1, 64},
        {"batch", 0u, "charge batch in pages (0 = the variant's MEMCG_CHARGE_BATCH)", 0, 4096},
        {"stock_slots", 1u, "memcgs one CPU's charge stock caches (1 as in 6.x)", 1, 8},
        {"depth", 3u, "memcg levels below the root", 1, 16},
        {"phase", 0u, "start offset of each struct mem_cgroup modulo 64 (multiple of 8)", 0, 56},
        {"top_min", 16u, "memory.min of each top level, in pages", 0, kMaxPages},
        {"top_low", 32u, "memory.low of each top level, in pages", 0, kMaxPages},
        {"window", 8u, "messages a pair has in flight before the sender waits", 1,
         pipe_ring::kSlots},
        {"stats", true, "mod_memcg_state(MEMCG_SOCK) on every charge and uncharge"},
        {"work_ns", kAnchoredWorkNs,
         "other work per message on each CPU, in ns (the TCP stack; anchored on the seed's "
         "root-cgroup figure)",
         0, kMaxWorkNs, false},
    };
}

void NetperfWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const nlohmann::json p = resolve_params(config);
    if (p["phase"].get<unsigned>() % 8 != 0)
        throw WorkloadError("phase must be a multiple of 8 below 64");
    reserve_policy(p["forward_alloc"].get<std::string>());
    // Builds one memcg so a layout lacking a field the variant needs fails now.
    ObjectRegistry scratch;
    const auto& kernel = PageCounterChargeWorkload::variant(netperf_variant(config.variant).kernel);
    MemCgroup probe(scratch, "check", nullptr,
                    PageCounterChargeWorkload::mem_cgroup_layout(config, kernel), 0,
                    {kernel.propagation, kernel.v6_15_fields});
}

WorkloadResult NetperfWorkload::run(const WorkloadRunConfig& config,
                                    const ThreadHooks& hooks) const {
    validate(config);
    const NetperfVariant& variant = netperf_variant(config.variant);
    const auto& kernel = PageCounterChargeWorkload::variant(variant.kernel);
    const nlohmann::json p = resolve_params(config);
    const Layout layout = PageCounterChargeWorkload::mem_cgroup_layout(config, kernel);
    const unsigned batch = p["batch"].get<unsigned>() ? p["batch"].get<unsigned>() : kernel.batch;
    const auto msg_size = static_cast<std::int64_t>(p["msg_size"].get<unsigned>());
    const ReservePolicy policy = reserve_policy(p["forward_alloc"].get<std::string>());
    const unsigned memcgs = p["memcgs"].get<unsigned>();
    const unsigned pairs = config.threads / 2;
    const BusyWork work{std::chrono::nanoseconds(p["work_ns"].get<unsigned>())};

    WorkloadResult result;
    MemcgHierarchy tree(result.objects, layout, {kernel.propagation, kernel.v6_15_fields},
                        PageCounterChargeWorkload::hierarchy_config(p));
    std::vector<MemCgroup*> leaves{&tree.leaf()};
    for (unsigned k = 1; k < memcgs; ++k)
        leaves.push_back(&tree.add_branch(fmt::format("top{}", k + 1)));

    // Per CPU (thread slot): its stocks and statistics; per pair: the pipe and both sockets.
    MemcgStatsGlobal stats_global(result.objects);
    std::vector<std::unique_ptr<MemcgStatsCpu>> stats;
    std::vector<ChargeCounters> counters(config.threads);
    std::vector<std::unique_ptr<CpuStocks>> cpus;
    for (unsigned t = 0; t < config.threads; ++t) {
        if (p["stats"].get<bool>())
            stats.push_back(std::make_unique<MemcgStatsCpu>(
                result.objects, fmt::format("vmstats/{}", t), stats_global,
                MemcgStatsCpu::Config{batch, config.threads, kernel.stats_read_first}));
        cpus.push_back(
            std::make_unique<CpuStocks>(result.objects, t, p["stock_slots"].get<unsigned>(), batch,
                                        counters[t], stats.empty() ? nullptr : stats[t].get()));
    }
    std::vector<std::unique_ptr<MessagePipe>> pipes;
    for (unsigned i = 0; i < pairs; ++i)
        pipes.push_back(
            std::make_unique<MessagePipe>(result.objects, i, p["window"].get<unsigned>()));
    std::vector<SocketMemory> sockets(2 * pairs); // pair i: netperf's 2i, netserver's 2i + 1
    const auto memcg_of = [&](unsigned socket) -> MemCgroup& { return *leaves[socket % memcgs]; };
    std::vector<std::uint64_t> charged_pages(config.threads, 0), uncharged_pages(config.threads, 0);

    run_workers(config, hooks, result,
                [&](unsigned slot, const std::atomic<bool>& stop, TraceBuffer* trace) {
                    CpuStocks& cpu = *cpus[slot];
                    // The send path and, over loopback, the receive softirq run on the sender's
                    // CPU.
                    const auto charge = [&]<bool T>(unsigned socket) {
                        const unsigned pages = sockets[socket].schedule(msg_size);
                        if (pages == 0 || !variant.memcg)
                            return;
                        MemCgroup& memcg = memcg_of(socket);
                        if (cpu.charger_for(memcg).template charge_skmem<T>(memcg, pages))
                            charged_pages[slot] += pages;
                    };
                    // recvmsg and, over loopback, the ACK's softirq run on the receiver's CPU.
                    const auto uncharge = [&]<bool T>(unsigned socket) {
                        const unsigned pages = sockets[socket].release(msg_size, policy);
                        if (pages == 0 || !variant.memcg)
                            return;
                        MemCgroup& memcg = memcg_of(socket);
                        cpu.charger_for(memcg).template uncharge_skmem<T>(memcg, pages);
                        uncharged_pages[slot] += pages;
                        if (variant.reclaim_walks_memcg_pressure)
                            memcg.template under_socket_pressure<T>();
                    };
                    std::uint64_t ops = 0;
                    if (slot < pairs) { // netperf: sends until the run ends
                        MessagePipe& pipe = *pipes[slot];
                        ops = counted_loop(config, stop, trace, [&](auto traced) {
                            constexpr bool T = decltype(traced)::value;
                            charge.template operator()<T>(2 * slot);     // tcp_sendmsg/sendpage
                            charge.template operator()<T>(2 * slot + 1); // tcp_v6_rcv on loopback
                            work.run();
                            pipe.send<T>(static_cast<std::uint64_t>(msg_size));
                        });
                        pipe.close<true>();
                    } else { // netserver: receives until its sender closes the pipe
                        const unsigned pair = slot - pairs;
                        MessagePipe& pipe = *pipes[pair];
                        const bool probed = probes_wanted(trace);
                        const auto receive = [&]<bool T>() {
                            if (!pipe.receive<T>())
                                return false;
                            uncharge.template operator()<T>(2 * pair +
                                                            1);        // tcp_recvmsg frees the skb
                            uncharge.template operator()<T>(2 * pair); // the ACK frees the sent skb
                            work.run();
                            return true;
                        };
                        while (probed ? receive.template operator()<true>()
                                      : receive.template operator()<false>()) {
                            ++ops;
                            if (trace)
                                trace->end_operation();
                        }
                    }
                    OutsideMeasurement untraced;
                    cpu.drain();
                    return ops;
                });

    // Throughput is messages delivered: what the receivers took.
    for (unsigned t = pairs; t < config.threads; ++t)
        result.ops += result.ops_per_thread[t];
    ChargeCounters total;
    for (const auto& c : counters)
        total += c;
    std::uint64_t charged = 0, uncharged = 0;
    for (unsigned t = 0; t < config.threads; ++t) {
        charged += charged_pages[t];
        uncharged += uncharged_pages[t];
    }
    std::int64_t forward = 0;
    for (const SocketMemory& s : sockets)
        forward += s.forward_bytes();
    result.resolved_params = p;
    result.resolved_params["batch"] = batch;
    result.resolved_params["layout.mem_cgroup"] = layout.version;
    result.resolved_params["propagation"] =
        kernel.propagation == ProtectionPropagation::always_exchange ? "always_exchange"
                                                                     : "on_change";
    result.resolved_params["v6_15_fields"] = kernel.v6_15_fields;
    result.resolved_params["sockets_charged"] = variant.memcg;
    result.resolved_params["reclaim_pressure_walk"] = variant.reclaim_walks_memcg_pressure;
    result.stats = {{"stock_hits", total.stock_hits},
                    {"counter_charges", total.counter_charges},
                    {"charge_failures", total.failures},
                    {"over_high", total.over_high},
                    {"pages_charged", charged},
                    {"pages_uncharged", uncharged},
                    {"forward_alloc_bytes_left", forward},
                    {"final_root_usage", tree.root().memory().usage()},
                    {"stats_flush_threshold", stats_global.flush_threshold()}};
    return result;
}

} // namespace hitmap::engine
