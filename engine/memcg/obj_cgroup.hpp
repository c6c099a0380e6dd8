#pragma once
// struct obj_cgroup (mm/memcontrol.c, v5.10-v5.14): what a slab object is charged to. Its
// refcount is a percpu_ref: in the fast path get/put/tryget read percpu_count_ptr (objcg+0) and
// change this CPU's counter, so every get and put reads the line that also holds memcg and
// nr_charged_bytes, the byte remainder drained stocks leave behind.
#include "engine/layout/kmem_layouts.hpp"
#include "engine/memcg/mem_cgroup.hpp"
#include "engine/memcg/slab_stats.hpp"

namespace hitmap::engine {

class ObjCgroup : public ProbedObject {
public:
    // `node`: the per-node statistics of `memcg`, which slab events on this objcg update.
    ObjCgroup(ObjectRegistry& registry, MemCgroup& memcg, MemcgNodeStats& node,
              const Layout& layout);

    MemCgroup& memcg_unprobed() const { return memcg_; }
    MemcgNodeStats& node() const { return node_; }
    // obj_cgroup_memcg(): READ_ONCE(objcg->memcg).
    template <bool Traced = true> MemCgroup& memcg(Site site) const {
        load<Traced>(objcg::memcg, site);
        return memcg_;
    }
    // obj_cgroup_get/put/tryget in percpu mode: a read of percpu_count_ptr and this CPU's
    // counter (thread-local here: nobody else touches it).
    template <bool Traced = true> void get(Site site) const {
        load<Traced>(objcg::percpu_count_ptr, site);
        ++t_refs;
    }
    template <bool Traced = true> void put(Site site) const {
        load<Traced>(objcg::percpu_count_ptr, site);
        --t_refs;
    }
    std::int32_t charged_bytes() const {
        return static_cast<std::int32_t>(peek(objcg::nr_charged_bytes));
    }

private:
    static inline thread_local std::int64_t t_refs = 0;
    MemCgroup& memcg_;
    MemcgNodeStats& node_;
};

// css_tryget()/css_put() on a memcg in percpu mode: the same shape, on css.refcnt.
template <bool Traced = true> void css_get(const MemCgroup& memcg, Site site) {
    memcg.load<Traced>(mcg::css_refcnt, site);
}

} // namespace hitmap::engine
