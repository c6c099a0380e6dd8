#include "engine/memcg/kmem_allocator.hpp"

namespace hitmap::engine {

namespace {

ObjCgroup* as_objcg(std::uint64_t pointer) {
    return reinterpret_cast<ObjCgroup*>(static_cast<std::uintptr_t>(pointer));
}

} // namespace

template <bool Traced> std::optional<SlabObject> KmemAllocator::alloc(MemCgroup& current) {
    ObjCgroup* objcg = nullptr;
    if (charger_) {
        // get_obj_cgroup_from_current(): rcu_dereference(memcg->objcg), obj_cgroup_tryget().
        const Site site = Site::get_obj_cgroup_from_current;
        objcg = as_objcg(current.load<Traced>(mcg::objcg, site));
        if (objcg) {
            objcg->get<Traced>(site);
            if (!charger_->charge<Traced>(*objcg, full_size())) {
                objcg->put<Traced>(site);
                return std::nullopt;
            }
        }
    }
    const SlabObject object = slabs_.alloc<Traced>();
    if (objcg) {
        const Site site = Site::memcg_slab_post_alloc_hook;
        object.slab->page().load<Traced>(slab_page::memcg_data, site); // page_objcgs()
        objcg->get<Traced>(site);
        object.slab->objcgs().store<Traced>(static_cast<FieldId>(object.index),
                                            reinterpret_cast<std::uintptr_t>(objcg), site);
        charger_->mod_state<Traced>(*objcg, full_size());
        objcg->put<Traced>(site); // the pre-alloc hook's reference
    }
    return object;
}

template <bool Traced> void KmemAllocator::free(SlabObject object) {
    if (charger_) {
        const Site site = Site::memcg_slab_free_hook;
        object.slab->page().load<Traced>(slab_page::memcg_data, site);
        const auto index = static_cast<FieldId>(object.index);
        if (ObjCgroup* objcg = as_objcg(object.slab->objcgs().load<Traced>(index, site))) {
            object.slab->objcgs().store<Traced>(index, 0, site);
            charger_->uncharge<Traced>(*objcg, full_size());
            charger_->mod_state<Traced>(*objcg, -static_cast<std::int64_t>(full_size()));
            objcg->put<Traced>(site);
        }
    }
    slabs_.free<Traced>(object);
}

template std::optional<SlabObject> KmemAllocator::alloc<true>(MemCgroup&);
template std::optional<SlabObject> KmemAllocator::alloc<false>(MemCgroup&);
template void KmemAllocator::free<true>(SlabObject);
template void KmemAllocator::free<false>(SlabObject);

} // namespace hitmap::engine
