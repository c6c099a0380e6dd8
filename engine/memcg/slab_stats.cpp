#include "engine/memcg/slab_stats.hpp"

#include <cstdlib>

namespace hitmap::engine {

MemcgNodeStats::MemcgNodeStats(ObjectRegistry& registry, const MemCgroup& memcg,
                               MemcgNodeStats* parent, unsigned index)
    : ProbedObject(registry, memcg.path() + " nodeinfo[0]",
                   *find_builtin_layout("mem_cgroup_per_node", "v5.12"), 0)
    , memcg_(memcg)
    , parent_(parent)
    , index_(index) {}

SlabStatsCpu::SlabStatsCpu(ObjectRegistry& registry, std::string name, unsigned memcgs)
    : ProbedObject(registry, std::move(name), *find_builtin_layout("slab_stats_cpu", "v5.13"), 0)
    , batch_(memcgs, 0) {
    mark_owner_only();
}

template <bool Traced>
void SlabStatsCpu::mod_memcg_lruvec_state(MemcgNodeStats& node, std::int64_t val) {
    const Site site = Site::mod_memcg_lruvec_state;
    const MemCgroup& memcg = node.memcg();
    // memcg: __this_cpu_add(memcg->vmstats_percpu->state[idx], val), cgroup_rstat_updated()
    memcg.load<Traced>(mcg::vmstats_percpu, site);
    add_local<Traced>(slabstat::memcg_state, val, site);
    memcg.load<Traced>(mcg::css_cgroup, site);
    if (load<Traced>(slabstat::updated_next, site) == 0)
        store<Traced>(slabstat::updated_next, 1, site); // linked until a flush: none modelled
    // lruvec: the local counter, then the batch, flushed up the hierarchy past the threshold
    add_local<Traced>(slabstat::lruvec_local, val, site);
    std::int64_t& batch = batch_[node.index()];
    load<Traced>(slabstat::lruvec_batch, site);
    std::int64_t x = batch + val;
    if (std::llabs(x) > kByteThreshold) {
        const MemCgroup* m = &memcg;
        for (MemcgNodeStats* pn = &node; pn; pn = pn->parent()) {
            pn->add_return<Traced>(pernode::slab_unreclaimable_b, x, site);
            m = m->parent_probed<Traced>(site); // parent_nodeinfo(): parent_mem_cgroup()
        }
        x = 0;
    }
    store<Traced>(slabstat::lruvec_batch, static_cast<std::uint64_t>(x), site);
    batch = x;
}

template void SlabStatsCpu::mod_memcg_lruvec_state<true>(MemcgNodeStats&, std::int64_t);
template void SlabStatsCpu::mod_memcg_lruvec_state<false>(MemcgNodeStats&, std::int64_t);

} // namespace hitmap::engine
