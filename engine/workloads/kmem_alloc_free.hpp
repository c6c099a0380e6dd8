#pragma once
// Seed 000 (Waiman Long, 2021): kmalloc and kfree with kernel-memory accounting, per patch level
// of "mm/memcg: Reduce kmemcache memory accounting overhead", on cgroup v1 or v2.
//   kmem-alloc-free:    the series' module test, one loop of `allocs` allocations then as many
//                       frees per operation (the seed: 4, 100 M loops, 32 B or 4 KiB objects);
//   kmem-alloc-free-mt: every thread in one memcg allocating and freeing a 4 KiB object per
//                       operation (the seed: 96 threads of a 2-socket 48-core machine).
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

class KmemAllocFreeWorkload : public Workload {
public:
    // `allocs`: the default allocations per operation (4, or 1 for the pairs of the mt test).
    KmemAllocFreeWorkload(std::string name, std::string description, unsigned allocs,
                          unsigned object_size, std::optional<SeedMachine> seed_machine,
                          std::optional<Investigation> investigation = std::nullopt);
    const WorkloadInfo& info() const override { return info_; }
    void validate(const WorkloadRunConfig& config) const override;
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override;

private:
    WorkloadInfo info_;
};

// Waiman Long's single-thread and 96-thread tables, with the runs of both workloads.
Investigation waiman_2021();

// The parameters every kmem workload takes: size, cgroup (and their checks).
void add_kmem_params(WorkloadInfo& info, unsigned object_size);
// Throws WorkloadError naming the bad value; returns whether the run is on cgroup v1.
bool check_kmem_params(const nlohmann::json& params);

} // namespace hitmap::engine
