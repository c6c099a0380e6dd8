#pragma once
// Seed 003: 2009 memcg page charging through the 2.6.31 res_counter hierarchy, one spinlock
// per level, before and after Kamezawa's per-CPU precharge (reference/memcg.md §3). The
// headline is lock_stat's: "&counter->lock" contentions 1,196,935 -> 12,984.
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

struct ResCounterChargeVariant {
    std::string name;
    std::string description;
    bool precharge; // false: every page is one res_counter_charge/uncharge
};

class ResCounterChargeWorkload : public Workload {
public:
    ResCounterChargeWorkload();
    const WorkloadInfo& info() const override { return info_; }
    void validate(const WorkloadRunConfig& config) const override;
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override;

    static const std::vector<ResCounterChargeVariant>& variants();

private:
    WorkloadInfo info_;
};

} // namespace hitmap::engine
