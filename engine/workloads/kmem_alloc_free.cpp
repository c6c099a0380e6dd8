#include "engine/workloads/kmem_alloc_free.hpp"

#include "engine/workloads/kmem_world.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

void add_kmem_params(WorkloadInfo& info, unsigned object_size) {
    info.layout_structs = {"mem_cgroup", "page_counter", "obj_cgroup"};
    for (const KmemVariant& v : kmem_variants())
        info.variants.push_back({v.name, v.description});
    info.params.push_back({"size", object_size,
                           "object size in bytes: 32, 512 or 4096 (obj_full_size adds the "
                           "8-byte objcg pointer)"});
    info.params.push_back(
        {"cgroup", "v2",
         "cgroup version: v2, or v1, which also charges the hierarchical memcg->kmem counter "
         "with every page and memsw with memory"});
}

bool check_kmem_params(const nlohmann::json& params) {
    KmemWorld::objects_per_slab(params["size"].get<unsigned>());
    const std::string cgroup = params["cgroup"].get<std::string>();
    if (cgroup != "v1" && cgroup != "v2")
        throw WorkloadError(fmt::format("unknown cgroup version '{}' (v1 or v2)", cgroup));
    return cgroup == "v1";
}

Investigation waiman_2021() {
    Investigation inv{"waiman-2021",
                      "mm/memcg: Reduce kmemcache memory accounting overhead",
                      "Waiman Long, Apr 2021: a module's kmem_cache_alloc/free on a Cascade "
                      "Lake, and 96 threads of a 2-socket machine in one memcg",
                      {}};
    const std::vector<std::string> patches{"none", "1-2", "1-3", "1-4"};
    // One thread on this machine and on one CPU of the seed's: the seed's module test.
    const auto single_row = [](std::string label, const std::string& variant,
                               const nlohmann::json& params, double seconds, unsigned base) {
        const RowRun run{.variant = variant,
                         .params = params,
                         .threads = 1,
                         .iterations = 1000000,
                         .quick_iterations = 200000};
        RowRun simulated = run;
        simulated.iterations = 20000;
        simulated.quick_iterations = 5000;
        return SeedRow{std::move(label), {seconds}, run, simulated, base, std::nullopt};
    };

    // The module test: 100,000,000 alloc/free pairs in batches of 4, one thread.
    SeedTable single;
    single.title = "one thread: run time of 100 M kmem_cache_alloc/free pairs";
    single.figures = {
        {.column = "run time", .kind = FigureKind::seconds_for, .scale = 25e6, .unit = "s"}};
    const std::vector<std::pair<std::string, std::vector<double>>> groups{
        {"small 32 B object (v2)", {11.634, 9.425, 9.708, 8.062}},
        {"large 4 KiB object (v2)", {22.107, 20.960, 14.238, 11.329}},
        {"large 4 KiB object (v1)", {36.807, 36.648, 22.345, 18.662}}};
    for (const auto& [group, seconds] : groups) {
        const auto base = static_cast<unsigned>(single.rows.size());
        const nlohmann::json params = {{"size", group.starts_with("small") ? 32u : 4096u},
                                       {"cgroup", group.ends_with("(v1)") ? "v1" : "v2"}};
        for (std::size_t i = 0; i < patches.size(); ++i)
            single.rows.push_back(single_row(fmt::format("{}: {}", group, patches[i]), patches[i],
                                             params, seconds[i], base));
    }
    // "With memory accounting disabled, the run time was 3.130s with both small object big
    // object tests": one figure for both sizes, so one row, of the small object.
    const auto off_row = static_cast<unsigned>(single.rows.size());
    single.rows.push_back(single_row("accounting off (both sizes)", "off",
                                     {{"size", 32u}, {"cgroup", "v2"}}, 3.130, off_row));
    single.machine = "cascadelake-2s-96";
    single.change = ChangeStyle::percent;
    single.lower_is_better = true;
    // Large v2, none against 1-3: patch 3 keeps an uncharge's remainder in the stock.
    single.cause = {
        CauseKind::metrics,
        {4, 6},
        {"engine.page_counter_charges", "engine.obj_stock_drains", "engine.nr_charged_bytes_rmw"},
        {}};
    single.note = "One operation is 4 allocations and 4 frees: 25 M operations make the seed's "
                  "100 M pairs at the measured rate. The engine has no slab page allocator "
                  "behind the cache, so its times are shorter.";
    inv.tables.push_back(std::move(single));

    // 96 threads of a 2-socket 48-core Cascade Lake in one memcg, kmalloc+kfree of 4 KiB.
    SeedTable multi;
    multi.title = "96 threads in one memcg: kmalloc/kfree of 4 KiB";
    multi.figures = {
        {.column = "throughput", .kind = FigureKind::ops_per_s, .scale = 1e-3, .unit = "kops/s"}};
    // Every CPU of this machine, and the seed's 96 virtual CPUs for its 10 s at a fixed time.
    const auto multi_row = [](std::string label, const std::string& variant,
                              const nlohmann::json& params, double kops, unsigned base) {
        const RowRun run{.workload = "kmem-alloc-free-mt",
                         .variant = variant,
                         .params = params,
                         .iterations = 1000000,
                         .quick_iterations = 200000};
        const RowRun simulated{.workload = "kmem-alloc-free-mt",
                               .variant = variant,
                               .params = params,
                               .threads = 96,
                               .duration_us = 1000,
                               .quick_duration_us = 100};
        return SeedRow{std::move(label), {kops}, run, simulated, base, std::nullopt};
    };
    const std::vector<std::pair<std::string, std::vector<double>>> cgroups{
        {"v1", {3520, 4304, 4731, 4587}}, {"v2", {6242, 8478, 418142, 438838}}};
    for (const auto& [cgroup, kops] : cgroups) {
        const auto base = static_cast<unsigned>(multi.rows.size());
        for (std::size_t i = 0; i < patches.size(); ++i)
            multi.rows.push_back(multi_row(fmt::format("{}: {}", cgroup, patches[i]), patches[i],
                                           {{"cgroup", cgroup}}, kops[i], base));
    }
    // "With memory accounting disabled, the kmalloc/kfree rate was 1,481,291 kop/s."
    const auto off = static_cast<unsigned>(multi.rows.size());
    multi.rows.push_back(multi_row("accounting off", "off", {{"cgroup", "v2"}}, 1481291, off));
    multi.change = ChangeStyle::ratio;
    multi.machine = "cascadelake-2s-96";
    multi.cause = {CauseKind::hottest_line, {4, 6}, {}, {}}; // v2: none, 1-3
    multi.note = "Measured: every CPU of this machine; simulated: the seed's 96 CPUs.";
    inv.tables.push_back(std::move(multi));
    // The engine's kmalloc has no page allocator or slab lists behind it, so this host runs it
    // several times faster than the seed's kernel; the published accounting-off rate sets how
    // much slower the seed's machine ran the same code.
    inv.anchors.push_back({Anchor::Kind::native_scale, "native_scale",
                           "every calibrated segment scaled so that 96 CPUs with accounting off "
                           "run at the seed's 1,481,291 kops/s",
                           1, off, false});
    return inv;
}

KmemAllocFreeWorkload::KmemAllocFreeWorkload(std::string name, std::string description,
                                             unsigned allocs, unsigned object_size,
                                             std::optional<SeedMachine> seed_machine,
                                             std::optional<Investigation> investigation) {
    info_.name = std::move(name);
    info_.investigation = std::move(investigation);
    info_.seed = "000";
    info_.description = std::move(description);
    info_.seed_machine = std::move(seed_machine);
    add_kmem_params(info_, object_size);
    info_.params.push_back(
        {"allocs", allocs, "allocations per operation, each freed after all of them", 1, 64});
}

void KmemAllocFreeWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const nlohmann::json p = resolve_params(config);
    check_kmem_params(p);
    KmemWorld::mem_cgroup_layout(config.layouts);
    KmemWorld::obj_cgroup_layout(config.layouts);
}

WorkloadResult KmemAllocFreeWorkload::run(const WorkloadRunConfig& config,
                                          const ThreadHooks& hooks) const {
    validate(config);
    const nlohmann::json p = resolve_params(config);
    const KmemVariant& variant = kmem_variant(config.variant);
    const unsigned allocs = p["allocs"].get<unsigned>();
    KmemWorldConfig wc;
    wc.cpus = config.threads;
    wc.cgroup_v1 = check_kmem_params(p);
    wc.object_size = p["size"].get<unsigned>();
    // The objects a thread holds at once, and a slab to spare.
    wc.slabs_per_cpu = allocs / KmemWorld::objects_per_slab(wc.object_size) + 2;
    wc.layouts = config.layouts;

    WorkloadResult result;
    KmemWorld world(result.objects, variant, wc);
    std::vector<std::uint64_t> failures(config.threads, 0);
    run_workers(config, hooks, result,
                [&](unsigned slot, const std::atomic<bool>& stop, TraceBuffer* trace) {
                    KmemAllocator& allocator = world.allocator(slot);
                    MemCgroup& memcg = world.memcg(0);
                    std::vector<SlabObject> held;
                    held.reserve(allocs);
                    const std::uint64_t ops = counted_loop(config, stop, trace, [&](auto traced) {
                        constexpr bool T = decltype(traced)::value;
                        for (unsigned i = 0; i < allocs; ++i) {
                            if (const auto object = allocator.alloc<T>(memcg))
                                held.push_back(*object);
                            else
                                ++failures[slot];
                        }
                        for (const SlabObject& object : held)
                            allocator.free<T>(object);
                        held.clear();
                    });
                    OutsideMeasurement untraced;
                    world.drain(slot);
                    return ops;
                });
    for (const std::uint64_t ops : result.ops_per_thread)
        result.ops += ops;
    world.finish(result, p, variant, config.layouts, failures);
    return result;
}

} // namespace hitmap::engine
