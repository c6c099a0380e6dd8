#pragma once
// Seed 001 as the benchmark ran it: netperf TCP_SENDFILE over loopback, sender/receiver pairs,
// one thread per CPU, each socket's memory charged and uncharged through the per-CPU stock of
// the CPU where the kernel does it, so each CPU's stock flows one way (reference/memcg.md §1).
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

struct NetperfVariant {
    std::string name;
    std::string description;
    std::string kernel; // the charge path's kernel: a PageCounterChargeWorkload variant
    bool memcg;         // false: the sockets are in the root cgroup and never charged
    // __sk_mem_reduce_allocated() asks sk_under_memory_pressure(), whose memcg walk reads
    // every level's socket_pressure and css.parent (until sk_under_global_memory_pressure()).
    bool reclaim_walks_memcg_pressure;
};

class NetperfWorkload : public Workload {
public:
    NetperfWorkload();
    const WorkloadInfo& info() const override { return info_; }
    void validate(const WorkloadRunConfig& config) const override;
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override;

    static const std::vector<NetperfVariant>& variants();

private:
    WorkloadInfo info_;
};

} // namespace hitmap::engine
