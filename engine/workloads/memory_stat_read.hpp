#pragma once
// Seed 002 (Yosry Ahmed, 2023): reading cgroup v1 memory.stat of 1,000 memcgs on a 256-CPU
// machine took 0.125 s before "mm: memcg: use rstat for non-hierarchical stats" (v6.6) and
// 0.032 s after. Before, each of memory.stat's 19 local items summed a counter over every
// possible CPU; after, the rstat flush keeps local counters and a read takes one value. Thread
// 0 reads the memcgs' memory.stat in turn (an operation is one file); any further threads
// update their CPU's counters of the memcgs at a set rate, which queues work for the flush.
// The cost is capacity misses over 256 CPUs' counters, not transfers: a simulation prices them
// through the machine's finite caches, and real threads through this host's.
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

class MemoryStatReadWorkload : public Workload {
public:
    MemoryStatReadWorkload();
    const WorkloadInfo& info() const override { return info_; }
    void validate(const WorkloadRunConfig& config) const override;
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override;

private:
    WorkloadInfo info_;
};

} // namespace hitmap::engine
