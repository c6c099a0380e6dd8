#pragma once
// The statistics a slab allocation or free updates (mod_memcg_lruvec_state(), v5.13 as in the
// seeds' base kernel; docs/LAYOUTS.md): the memcg part is rstat, a per-CPU add and
// cgroup_rstat_updated(), no atomics; the lruvec (per-node) part batches per CPU and, once a
// CPU's batch passes MEMCG_CHARGE_BATCH pages' worth of bytes (131072 for byte items), adds it
// with atomic_long_add to the per-node counter of the memcg and of every ancestor.
#include "engine/layout/kmem_layouts.hpp"
#include "engine/memcg/mem_cgroup.hpp"

#include <vector>

namespace hitmap::engine {

// struct mem_cgroup_per_node of one memcg (a single NUMA node is modelled).
class MemcgNodeStats : public ProbedObject {
public:
    // `index`: dense over a run's memcgs, for the per-CPU batches.
    MemcgNodeStats(ObjectRegistry& registry, const MemCgroup& memcg, MemcgNodeStats* parent,
                   unsigned index);
    MemcgNodeStats* parent() const { return parent_; }
    const MemCgroup& memcg() const { return memcg_; }
    std::int64_t slab_bytes() const {
        return static_cast<std::int64_t>(peek(pernode::slab_unreclaimable_b));
    }
    unsigned index() const { return index_; }

private:
    const MemCgroup& memcg_;
    MemcgNodeStats* parent_;
    unsigned index_;
};

// One CPU's slab statistics; only its owner touches them.
class SlabStatsCpu : public ProbedObject {
public:
    static constexpr std::int64_t kByteThreshold = 32 << 12; // MEMCG_CHARGE_BATCH << PAGE_SHIFT

    // `memcgs`: how many MemcgNodeStats exist (their batches are kept per memcg, per CPU).
    SlabStatsCpu(ObjectRegistry& registry, std::string name, unsigned memcgs);

    // NR_SLAB_UNRECLAIMABLE_B += val for `node`'s memcg (kmalloc caches are unreclaimable).
    template <bool Traced = true>
    void mod_memcg_lruvec_state(MemcgNodeStats& node, std::int64_t val);

private:
    std::vector<std::int64_t> batch_; // lruvec_stat_cpu per memcg on this CPU
};

} // namespace hitmap::engine
