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

KmemAllocFreeWorkload::KmemAllocFreeWorkload(std::string name, std::string description,
                                             unsigned allocs, unsigned object_size,
                                             std::optional<SeedMachine> seed_machine) {
    info_.name = std::move(name);
    info_.seed = "000";
    info_.description = std::move(description);
    info_.seed_machine = std::move(seed_machine);
    add_kmem_params(info_, object_size);
    info_.params.push_back(
        {"allocs", allocs, "allocations per operation, each freed after all of them (1..64)"});
}

void KmemAllocFreeWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const nlohmann::json p = resolve_params(config);
    check_kmem_params(p);
    if (const unsigned allocs = p["allocs"].get<unsigned>(); allocs == 0 || allocs > 64)
        throw WorkloadError(fmt::format("allocs must be in 1..64, not {}", allocs));
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
