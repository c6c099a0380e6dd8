#include "engine/workloads/kmem_alloc_free.hpp"
#include "engine/workloads/memory_stat_read.hpp"
#include "engine/workloads/netperf.hpp"
#include "engine/workloads/objcg_free.hpp"
#include "engine/workloads/page_counter_charge.hpp"
#include "engine/workloads/res_counter_charge.hpp"
#include "engine/workloads/workload.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

namespace {

std::vector<const Workload*>& registry() {
    static const PageCounterChargeWorkload page_counter_charge;
    static const ResCounterChargeWorkload res_counter_charge;
    static const KmemAllocFreeWorkload kmem_alloc_free(
        "kmem-alloc-free",
        "kmalloc/kfree with kernel-memory accounting, one loop of allocations then frees per "
        "operation (Waiman Long's module test, patch by patch)",
        4, 4096, std::nullopt, waiman_2021());
    // The seed's multi-thread test: 96 threads of a 2-socket 48-core Cascade Lake in one memcg.
    static const KmemAllocFreeWorkload kmem_alloc_free_mt(
        "kmem-alloc-free-mt",
        "every thread in one memcg allocating and freeing a 4 KiB object per operation", 1, 4096,
        SeedMachine{"cascadelake-2s-96", 96, {"none", "1-3"}});
    static const ObjcgFreeWorkload objcg_free;
    static const MemoryStatReadWorkload memory_stat_read;
    static const NetperfWorkload netperf;
    static std::vector<const Workload*> all{
        &page_counter_charge, &res_counter_charge, &kmem_alloc_free, &kmem_alloc_free_mt,
        &objcg_free,          &memory_stat_read,   &netperf};
    return all;
}

} // namespace

const std::vector<const Workload*>& all_workloads() {
    return registry();
}

void add_workload(const Workload& workload) {
    const WorkloadInfo& info = workload.info();
    if (info.name.empty() || info.variants.empty())
        throw WorkloadError("a workload needs a name and at least one variant");
    for (const Workload* w : registry())
        if (w->info().name == info.name)
            throw WorkloadError(fmt::format("workload '{}' exists already", info.name));
    registry().push_back(&workload);
}

} // namespace hitmap::engine
