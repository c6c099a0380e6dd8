#pragma once
// kmalloc() and kfree() of one cache with the memcg slab hooks (mm/slab.h, v5.12-v5.14):
//   alloc: memcg_slab_pre_alloc_hook (get_obj_cgroup_from_current, obj_cgroup_charge of
//          obj_full_size), the slab, memcg_slab_post_alloc_hook (objcgs[off] = objcg,
//          mod_objcg_state);
//   free:  memcg_slab_free_hook (objcg = objcgs[off], set NULL, obj_cgroup_uncharge,
//          mod_objcg_state, put), then the slab.
// Without a charger accounting is off: the cache alone, the baseline the seeds measure against.
#include "engine/memcg/kmem_charge.hpp"
#include "engine/memcg/slab_cache.hpp"

#include <optional>

namespace hitmap::engine {

class KmemAllocator {
public:
    KmemAllocator(SlabCpu& slabs, KmemCharger* charger, unsigned object_size)
        : slabs_(slabs)
        , charger_(charger)
        , size_(object_size) {}

    // obj_full_size(): the object and its obj_cgroup pointer.
    unsigned full_size() const { return size_ + 8; }

    // nullopt when a limit refused the charge. `current` is the allocating task's memcg.
    template <bool Traced = true> std::optional<SlabObject> alloc(MemCgroup& current);
    template <bool Traced = true> void free(SlabObject object);

private:
    SlabCpu& slabs_;
    KmemCharger* charger_;
    unsigned size_;
};

} // namespace hitmap::engine
