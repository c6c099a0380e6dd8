#pragma once
// Seed 003: 2009 memcg page charging through 2.6.31's res_counters (engine/memcg/res_memcg.hpp),
// before and after Kamezawa's per-CPU precharge and batched uncharge (reference/memcg.md §3).
// The headline is lock_stat's: "&counter->lock" contentions 1,196,935 -> 12,984, of which
// 11,117 at res_counter_uncharge and 1,867 at res_counter_charge.
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

struct ResCounterChargeVariant {
    std::string name;
    std::string description;
    bool precharge; // false: every page is one res_counter_charge and one _uncharge
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
