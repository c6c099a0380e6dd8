#pragma once
// Seed 001: netperf-like socket-memory charging into a 3-level hierarchy with memory.min and
// memory.low set on the top level, following Shakeel Butt's 2022 "memcg: optimize charge
// codepath" series patch by patch (reference/memcg.md §1).
#include "engine/memcg/mem_cgroup.hpp"
#include "engine/memcg/page_counter.hpp"
#include "engine/workloads/workload.hpp"

#include <nlohmann/json.hpp>

namespace hitmap::engine {

struct PageCounterChargeVariant {
    std::string name;
    std::string description;
    ProtectionPropagation propagation;
    bool v6_15_fields;
    std::string shape;     // struct mem_cgroup version (mem_cgroup_layout.hpp)
    std::string layout;    // page_counter layout version placed in it
    unsigned batch;        // MEMCG_CHARGE_BATCH: the stock's batch and the rstat update rate
    bool stats_read_first; // memcg_rstat_updated() reads stats_flush_threshold before adding
};

class PageCounterChargeWorkload : public Workload {
public:
    PageCounterChargeWorkload();
    const WorkloadInfo& info() const override { return info_; }
    void validate(const WorkloadRunConfig& config) const override;
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override;

    static const std::vector<PageCounterChargeVariant>& variants();
    // The variant named `name` (one of variants(): validate() has checked it).
    static const PageCounterChargeVariant& variant(std::string_view name);
    // struct mem_cgroup of the variant's shape around its page_counter, or what --layout
    // replaces. The netperf workload charges through the same kernels.
    static Layout mem_cgroup_layout(const WorkloadRunConfig& config,
                                    const PageCounterChargeVariant& variant);
    // The memcg hierarchy's shape from the resolved parameters both workloads take (depth,
    // phase, the top level's min and low).
    static HierarchyConfig hierarchy_config(const nlohmann::json& params);

private:
    WorkloadInfo info_;
};

} // namespace hitmap::engine
