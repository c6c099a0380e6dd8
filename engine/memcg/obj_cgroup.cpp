#include "engine/memcg/obj_cgroup.hpp"

namespace hitmap::engine {

ObjCgroup::ObjCgroup(ObjectRegistry& registry, MemCgroup& memcg, MemcgNodeStats& node,
                     const Layout& layout)
    : ProbedObject(registry, memcg.path() + " objcg", layout, 0)
    , memcg_(memcg)
    , node_(node) {
    poke(objcg::memcg, reinterpret_cast<std::uintptr_t>(&memcg));
    // memcg->objcg points here (rcu_assign_pointer at css online).
    memcg.poke(mcg::objcg, reinterpret_cast<std::uintptr_t>(this));
}

} // namespace hitmap::engine
