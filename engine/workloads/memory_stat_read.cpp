#include "engine/workloads/memory_stat_read.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"
#include "engine/memcg/memcg_rstat.hpp"
#include "engine/runtime/busy_work.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

namespace {

// Yosry Ahmed's figures: `time cat /dev/cgroup/memory/cg*/memory.stat` of 1,000 fresh memcgs on
// a 256-CPU machine, cgroup v1, before and after "mm: memcg: use rstat for non-hierarchical
// stats" (lore, 2023-07-25). One operation is one file; nothing updates, as in the seed.
Investigation yosry_2023() {
    const RowRun reads{.threads = 1, .iterations = 1000, .quick_iterations = 1000};
    const auto row = [&](std::string label, std::string variant, double real, double user,
                         double sys) {
        RowRun r = reads;
        r.variant = std::move(variant);
        return SeedRow{std::move(label), {real, user, sys}, r, r, std::nullopt, std::nullopt};
    };
    SeedTable t;
    t.title = "time cat of 1,000 memcgs' memory.stat (cgroup v1)";
    t.figures = {
        {.column = "real", .kind = FigureKind::seconds_for, .scale = 1000, .unit = "s"},
        {.column = "user", .kind = FigureKind::seed_only, .unit = "s"},
        {.column = "sys", .kind = FigureKind::seed_only, .unit = "s"},
    };
    t.rows = {row("before (v6.5)", "v6.5", 0.125, 0.005, 0.120),
              row("after (v6.6)", "v6.6", 0.032, 0.005, 0.027)};
    t.change = ChangeStyle::ratio;
    t.lower_is_better = true;
    t.machine = "epyc-2s-256";
    t.cause = {CauseKind::metrics,
               {0, 1},
               {"engine.percpu_reads_per_file", "sim.memory_reads_per_op", "sim.l2_hits_per_op"},
               {}};
    t.note = "One reader, 1,000 memcgs read once each, 256 possible CPUs, nothing updating. The "
             "engine does not split user and system time: the whole read is the kernel's. On "
             "real threads the per-CPU counters miss in this host's caches, not the seed's.";
    return {"yosry-2023",
            "mm: memcg: use rstat for non-hierarchical stats",
            "Yosry Ahmed, Jul 2023: reading memory.stat of 1,000 memcgs on a 256-CPU machine",
            {t}};
}

} // namespace

MemoryStatReadWorkload::MemoryStatReadWorkload() {
    info_.name = "memory-stat-read";
    info_.seed = "002";
    info_.description = "thread 0 reads each memcg's cgroup v1 memory.stat in turn (per-CPU sums "
                        "before v6.6, rstat-flushed local counters after); other threads update "
                        "their CPU's counters";
    info_.variants = {
        {"v6.5", "local items summed over every possible CPU on each read"},
        {"v6.6", "local counters kept by the rstat flush (Yosry Ahmed's patch): one value per "
                 "item"},
    };
    info_.params = {
        {"memcgs", 1000u, "memcgs under the root, read in turn", 1, 20000},
        {"possible_cpus", 256u,
         "possible CPUs, whatever the host or simulated machine has: for_each_possible_cpu() "
         "walks them",
         1, 1024},
        {"online_cpus", 0u, "num_online_cpus() for the flush threshold; 0: the possible CPUs", 0,
         1024},
        {"file_ns", 13700u,
         "per file, what the engine does not model: open, read and close of a kernfs seq_file. "
         "13.7 us is this VM's (kernel 6.18) for a cgroup v1 file printing one number "
         "(memory.limit_in_bytes, best of 5 x 1,000 files)",
         0, kMaxWorkNs},
        {"update_ns", 2000u, "an updater's work between two counter updates", 0, kMaxWorkNs},
    };
    info_.layout_structs = {"mem_cgroup"};
    // One memcg, so the 256 CPUs' counters a read walks (115 KB) stay in this host's L2 and a
    // calibrated segment holds hits only, as it must; the simulation prices the misses.
    info_.calibration_params = {{"memcgs", 1u}};
    info_.investigation = yosry_2023();
}

namespace {

struct Params {
    unsigned memcgs, possible_cpus, online_cpus, file_ns, update_ns;
};

Params params_of(const nlohmann::json& p) {
    Params r{p["memcgs"].get<unsigned>(), p["possible_cpus"].get<unsigned>(),
             p["online_cpus"].get<unsigned>(), p["file_ns"].get<unsigned>(),
             p["update_ns"].get<unsigned>()};
    if (r.online_cpus == 0)
        r.online_cpus = r.possible_cpus;
    return r;
}

Layout mem_cgroup_layout(const std::map<std::string, Layout>& overrides) {
    // struct mem_cgroup of v6.1: the nearest built-in to v6.5, whose page_counter it shares.
    const Layout& v6_1 = *find_builtin_layout("mem_cgroup", "v6.1");
    Layout layout = layout_under(v6_1, overrides).value_or(v6_1);
    for (const FieldId f : {counter_field(Counter::memory, pc::max),
                            counter_field(Counter::swap, pc::max), FieldId{mcg::css_parent}})
        if (!layout.has(f))
            throw LayoutError(fmt::format("layout {} of mem_cgroup lacks field '{}', which "
                                          "memory.stat's limit walk reads",
                                          layout.version, layout.field_name(f)));
    return layout;
}

} // namespace

void MemoryStatReadWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const Params p = params_of(resolve_params(config));
    if (p.online_cpus > p.possible_cpus)
        throw WorkloadError(fmt::format("online_cpus {} is more than the {} possible",
                                        p.online_cpus, p.possible_cpus));
    if (config.threads > p.possible_cpus)
        throw WorkloadError(fmt::format("{} threads need as many possible CPUs; possible_cpus "
                                        "is {}",
                                        config.threads, p.possible_cpus));
    mem_cgroup_layout(config.layouts);
}

WorkloadResult MemoryStatReadWorkload::run(const WorkloadRunConfig& config,
                                           const ThreadHooks& hooks) const {
    validate(config);
    const nlohmann::json resolved = resolve_params(config);
    const Params p = params_of(resolved);
    MemcgRstatConfig rc;
    rc.version = config.variant == "v6.6" ? StatsVersion::v6_6 : StatsVersion::v6_5;
    rc.memcgs = p.memcgs;
    rc.possible_cpus = p.possible_cpus;
    rc.online_cpus = p.online_cpus;
    rc.mem_cgroup = mem_cgroup_layout(config.layouts);

    WorkloadResult result;
    MemcgRstat stats(result.objects, rc);
    const BusyWork file_work{std::chrono::nanoseconds(p.file_ns)};
    const BusyWork update_work{std::chrono::nanoseconds(p.update_ns)};
    std::vector<MemcgRstatCounts> counts(config.threads);
    std::vector<std::uint64_t> updates(config.threads, 0);
    std::uint64_t bytes = 0;
    std::atomic<bool> reader_done{false};
    run_workers(config, hooks, result,
                [&](unsigned slot, const std::atomic<bool>& stop, TraceBuffer* trace) {
                    std::uint64_t ops = 0;
                    if (slot == 0) { // the reader, on CPU 0
                        std::string text;
                        unsigned next = 0;
                        ops = counted_loop(config, stop, trace, [&](auto traced) {
                            constexpr bool T = decltype(traced)::value;
                            stats.memory_stat<T>(0, 1 + next, text, counts[0]);
                            next = next + 1 == p.memcgs ? 0 : next + 1;
                            bytes += text.size();
                            file_work.run();
                        });
                        reader_done.store(true, std::memory_order_relaxed);
                    } else { // an updater on CPU `slot`: uncounted, until the reader is done
                        const bool probed = probes_wanted(trace);
                        for (std::uint64_t k = 0; !stop.load(std::memory_order_relaxed) &&
                                                  !reader_done.load(std::memory_order_relaxed);
                             ++k) {
                            const auto m = static_cast<unsigned>(1 + (k + slot) % p.memcgs);
                            const auto item = static_cast<unsigned>(k % kMemcg1Items);
                            if (probed)
                                stats.update<true>(slot, m, item, 1);
                            else
                                stats.update<false>(slot, m, item, 1);
                            ++updates[slot];
                            update_work.run();
                        }
                    }
                    return ops;
                });
    result.ops = result.ops_per_thread.front();

    MemcgRstatCounts total;
    std::uint64_t all_updates = 0;
    for (unsigned t = 0; t < config.threads; ++t) {
        total.flushes += counts[t].flushes;
        total.flushes_skipped += counts[t].flushes_skipped;
        total.flushed_pairs += counts[t].flushed_pairs;
        total.percpu_reads += counts[t].percpu_reads;
        all_updates += updates[t];
    }
    result.resolved_params = resolved;
    result.resolved_params["online_cpus"] = p.online_cpus;
    result.resolved_params["layout.mem_cgroup"] = rc.mem_cgroup.version;
    result.resolved_params["layout.memcg_vmstats"] =
        rc.version == StatsVersion::v6_6 ? "v6.6" : "v6.5";
    const double files = static_cast<double>(std::max<std::uint64_t>(result.ops, 1));
    result.stats = {
        {"files_read", result.ops},
        {"bytes_per_file", static_cast<double>(bytes) / files},
        {"seconds_per_1000_files",
         result.ops > 0 ? nlohmann::json(result.seconds / files * 1000.0) : nlohmann::json()},
        {"percpu_reads_per_file", static_cast<double>(total.percpu_reads) / files},
        {"updates", all_updates},
        {"flushes", total.flushes},
        {"flushes_skipped", total.flushes_skipped},
        {"flushed_memcg_cpu_pairs", total.flushed_pairs},
        {"percpu_bytes",
         static_cast<std::uint64_t>(p.possible_cpus) * (p.memcgs + 1) *
             (vmstats_percpu::kSize +
              (rc.version == StatsVersion::v6_6 ? kRstatCpuV6_6 : kRstatCpuV6_5).size)},
    };
    return result;
}

} // namespace hitmap::engine
