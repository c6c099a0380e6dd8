#pragma once
// What a kernel-memory accounting workload (seeds 000 and 004) runs on: memcgs under the root
// in struct mem_cgroup v5.12, each with its obj_cgroup and per-node statistics, and per CPU the
// memcg_stock_pcp of the variant's shape, the page and object charging, the slab statistics and
// a kmalloc cache of its own slabs. Shared by kmem-alloc-free, kmem-alloc-free-mt and
// objcg-free, which differ only in who allocates and who frees.
#include "engine/memcg/kmem_allocator.hpp"
#include "engine/workloads/workload.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hitmap::engine {

// Waiman Long's series, cumulative, and accounting off as the baseline.
struct KmemVariant {
    std::string name;
    std::string description;
    bool accounting = true;
    KmemSemantics semantics;  // cgroup_v1 and drain_pages are the run's parameters
    std::string stock_layout; // memcg_stock_pcp version
};
const std::vector<KmemVariant>& kmem_variants();
const KmemVariant& kmem_variant(std::string_view name); // a name from kmem_variants()

struct KmemWorldConfig {
    unsigned cpus = 1;
    unsigned memcgs = 1; // directly under the root: "test", or "group0".. when more than one
    bool cgroup_v1 = false;
    unsigned object_size = 4096;
    unsigned slabs_per_cpu = 2;
    unsigned drain_pages = 1;
    std::map<std::string, Layout> layouts; // --layout overrides of mem_cgroup, obj_cgroup
};

class KmemWorld {
public:
    // The object sizes modelled, with their slabs: 32 bytes (kmalloc-32, 128 objects a slab),
    // 512 (kmalloc-512, 8 in one page) and 4096 (kmalloc-4k, 8 in an order-3 slab).
    static unsigned objects_per_slab(unsigned object_size); // throws WorkloadError
    // The layouts a run uses, after --layout; throws LayoutError when one lacks a field.
    static Layout mem_cgroup_layout(const std::map<std::string, Layout>& overrides);
    static Layout obj_cgroup_layout(const std::map<std::string, Layout>& overrides);

    KmemWorld(ObjectRegistry& registry, const KmemVariant& variant, const KmemWorldConfig& config);
    ~KmemWorld();

    MemCgroup& memcg(unsigned i) { return *memcgs_[i]; }
    ObjCgroup& objcg(unsigned i) { return *objcgs_[i]; }
    MemCgroup& root() { return *root_; }
    KmemAllocator& allocator(unsigned cpu);
    // What a CPU still holds goes back at the end of its worker (outside the measurement).
    void drain(unsigned cpu);
    // The engine's counters summed over CPUs, and the counters' final state.
    nlohmann::json stats() const;
    // Fills what every kmem workload reports: the resolved parameters with the layouts named,
    // the stats, and the allocations a limit refused (per thread).
    void finish(WorkloadResult& result, const nlohmann::json& params, const KmemVariant& variant,
                const std::map<std::string, Layout>& layouts,
                const std::vector<std::uint64_t>& failures) const;

private:
    struct Cpu;
    std::unique_ptr<MemCgroup> root_;
    std::vector<std::unique_ptr<MemCgroup>> memcgs_;
    std::vector<std::unique_ptr<MemcgNodeStats>> nodes_; // [0] is the root's
    std::vector<std::unique_ptr<ObjCgroup>> objcgs_;
    std::vector<std::unique_ptr<Cpu>> cpus_;
};

} // namespace hitmap::engine
