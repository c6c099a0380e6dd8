#include "engine/memcg/kmem_charge.hpp"

#include <cstdlib>

namespace hitmap::engine {

template <bool Traced> ObjCgroup* KmemCharger::cached(Site site) const {
    return reinterpret_cast<ObjCgroup*>(
        static_cast<std::uintptr_t>(stock_.load<Traced>(stock::cached_objcg, site)));
}

template <bool Traced> bool KmemCharger::consume(ObjCgroup& objcg, unsigned nr_bytes) {
    const Site site = Site::consume_obj_stock;
    const CpuSection section(obj_section());
    if (cached<Traced>(site) != &objcg)
        return false;
    const auto have = static_cast<unsigned>(stock_.load<Traced>(stock::nr_bytes, site));
    if (have < nr_bytes)
        return false;
    stock_.store<Traced>(stock::nr_bytes, have - nr_bytes, site);
    return true;
}

// The stock switches to `objcg`: it takes a reference and whatever remainder earlier drains left
// in objcg->nr_charged_bytes (v5.12: atomic_xchg always; patch 2: only when it is non-zero).
template <bool Traced> void KmemCharger::cache(ObjCgroup& objcg, Site site) {
    objcg.get<Traced>(site);
    stock_.store<Traced>(stock::cached_objcg, reinterpret_cast<std::uintptr_t>(&objcg), site);
    std::uint64_t bytes = 0;
    if (!s_.conditional_xchg || objcg.load<Traced>(objcg::nr_charged_bytes, site) != 0) {
        bytes = objcg.exchange<Traced>(objcg::nr_charged_bytes, 0, site);
        ++counters_.charged_bytes_rmw;
    }
    stock_.store<Traced>(stock::nr_bytes, bytes, site);
    if (s_.cache_vmstat) // one NUMA node: the page's pgdat is always node 0's
        stock_.store<Traced>(stock::cached_pgdat, 1, site);
}

template <bool Traced> void KmemCharger::drain_locked() {
    const Site site = Site::drain_obj_stock;
    ObjCgroup* old = cached<Traced>(site);
    if (!old)
        return;
    ++counters_.drains;
    if (const auto bytes = static_cast<unsigned>(stock_.load<Traced>(stock::nr_bytes, site))) {
        if (const unsigned pages = static_cast<unsigned>(bytes / kPageSize))
            uncharge_pages<Traced>(*old, pages);
        // Added even when the remainder is 0 (v5.12-v5.14).
        old->add_return<Traced>(objcg::nr_charged_bytes, static_cast<unsigned>(bytes % kPageSize),
                                site);
        ++counters_.charged_bytes_rmw;
        stock_.store<Traced>(stock::nr_bytes, 0, site);
    }
    if (s_.cache_vmstat) {
        if (const auto slab = static_cast<std::int32_t>(
                stock_.load<Traced>(stock::nr_slab_unreclaimable_b, site))) {
            mod_mlstate<Traced>(*old, slab);
            stock_.store<Traced>(stock::nr_slab_unreclaimable_b, 0, site);
        }
        stock_.store<Traced>(stock::cached_pgdat, 0, site);
    }
    old->put<Traced>(site);
    stock_.store<Traced>(stock::cached_objcg, 0, site);
}

template <bool Traced>
void KmemCharger::refill(ObjCgroup& objcg, unsigned nr_bytes, bool allow_uncharge) {
    const Site site = Site::refill_obj_stock;
    const auto threshold = static_cast<unsigned>(s_.drain_pages * kPageSize);
    unsigned uncharge = 0;
    {
        const CpuSection section(obj_section());
        if (cached<Traced>(site) != &objcg) {
            drain_locked<Traced>();
            cache<Traced>(objcg, site);
            allow_uncharge = true; // the merged patch 3 forces it on a switch
        }
        unsigned bytes = static_cast<unsigned>(stock_.load<Traced>(stock::nr_bytes, site));
        bytes += nr_bytes;
        if (s_.uncharge_whole_pages) {
            if (allow_uncharge && bytes > threshold) {
                uncharge = static_cast<unsigned>(bytes / kPageSize);
                bytes %= kPageSize;
            }
            stock_.store<Traced>(stock::nr_bytes, bytes, site);
        } else {
            stock_.store<Traced>(stock::nr_bytes, bytes, site);
            if (bytes > threshold)
                drain_locked<Traced>();
        }
    }
    if (uncharge) // outside the stock section, as the merged patch does it
        uncharge_pages<Traced>(objcg, uncharge);
}

template <bool Traced> bool KmemCharger::charge_pages(ObjCgroup& objcg, unsigned nr_pages) {
    // obj_cgroup_charge_pages(): get_mem_cgroup_from_objcg(), try_charge(), v1 memcg->kmem.
    const Site site = Site::obj_cgroup_charge_pages;
    ++counters_.page_charges;
    MemCgroup& memcg = objcg.memcg<Traced>(site);
    css_get<Traced>(memcg, site);
    bool ok = pages_.try_charge<Traced>(memcg, nr_pages);
    if (ok && s_.cgroup_v1) {
        PageCounter* fail = nullptr;
        if (!memcg.kmem()->try_charge<Traced>(nr_pages, &fail)) {
            // cancel_charge(): the memory (and memsw) pages go back uncharged.
            memcg.memory().uncharge<Traced>(nr_pages);
            if (stock_.memsw())
                memcg.swap().uncharge<Traced>(nr_pages);
            ok = false;
        }
    }
    css_get<Traced>(memcg, site); // css_put reads the same percpu pointer
    if (!ok)
        ++counters_.failures;
    return ok;
}

template <bool Traced> void KmemCharger::uncharge_pages(ObjCgroup& objcg, unsigned nr_pages) {
    const Site site = Site::obj_cgroup_uncharge_pages;
    ++counters_.page_uncharges;
    MemCgroup& memcg = objcg.memcg<Traced>(site);
    css_get<Traced>(memcg, site);
    if (s_.cgroup_v1)
        memcg.kmem()->uncharge<Traced>(nr_pages);
    pages_.uncharge<Traced>(memcg, nr_pages); // refill_stock() since 3de7d4f25a74 (v5.11)
    css_get<Traced>(memcg, site);
}

template <bool Traced> void KmemCharger::mod_mlstate(ObjCgroup& objcg, std::int64_t nr) {
    // mod_objcg_mlstate()/the slab.h mod_objcg_state(): obj_cgroup_memcg(), then the memcg and
    // lruvec statistics.
    objcg.memcg<Traced>(Site::mod_objcg_state);
    stats_.mod_memcg_lruvec_state<Traced>(objcg.node(), nr);
}

template <bool Traced> bool KmemCharger::charge(ObjCgroup& objcg, unsigned size) {
    if (consume<Traced>(objcg, size)) {
        ++counters_.obj_stock_hits;
        return true;
    }
    const auto remainder = static_cast<unsigned>(size % kPageSize);
    const auto pages = static_cast<unsigned>(size / kPageSize) + (remainder ? 1u : 0u);
    if (!charge_pages<Traced>(objcg, pages))
        return false;
    if (remainder)
        refill<Traced>(objcg, static_cast<unsigned>(kPageSize) - remainder, false);
    return true;
}

template <bool Traced> void KmemCharger::uncharge(ObjCgroup& objcg, unsigned size) {
    refill<Traced>(objcg, size, true);
}

template <bool Traced> void KmemCharger::mod_state(ObjCgroup& objcg, std::int64_t nr) {
    const Site site = Site::mod_objcg_state;
    if (!s_.cache_vmstat) {
        // v5.12's slab.h mod_objcg_state(): mod_memcg_lruvec_state() saves and restores irqs.
        const CpuSection section(CpuSection::Kind::irq);
        mod_mlstate<Traced>(objcg, nr);
        return;
    }
    std::int64_t emit = 0;
    {
        const CpuSection section(obj_section());
        if (cached<Traced>(site) != &objcg) {
            drain_locked<Traced>();
            cache<Traced>(objcg, site);
        } else {
            stock_.load<Traced>(stock::cached_pgdat, site); // same node: nothing to flush
        }
        auto bytes =
            static_cast<std::int32_t>(stock_.load<Traced>(stock::nr_slab_unreclaimable_b, site));
        if (bytes == 0) {
            bytes = static_cast<std::int32_t>(nr); // the first event is cached, not emitted
        } else {
            bytes += static_cast<std::int32_t>(nr);
            if (std::abs(bytes) > static_cast<std::int32_t>(kPageSize)) {
                emit = bytes;
                bytes = 0;
            }
        }
        stock_.store<Traced>(stock::nr_slab_unreclaimable_b, static_cast<std::uint32_t>(bytes),
                             site);
        if (emit && !s_.task_stock) // irqs are off already
            mod_mlstate<Traced>(objcg, emit);
    }
    if (emit && s_.task_stock) { // mod_memcg_lruvec_state() saves irqs for the task path
        const CpuSection section(CpuSection::Kind::irq);
        mod_mlstate<Traced>(objcg, emit);
    }
}

template <bool Traced> void KmemCharger::drain() {
    {
        const CpuSection section(obj_section());
        drain_locked<Traced>();
    }
    stock_.drain<Traced>();
}

#define HITMAP_KMEM_COPIES(T)                                                                      \
    template bool KmemCharger::charge<T>(ObjCgroup&, unsigned);                                    \
    template void KmemCharger::uncharge<T>(ObjCgroup&, unsigned);                                  \
    template void KmemCharger::mod_state<T>(ObjCgroup&, std::int64_t);                             \
    template void KmemCharger::drain<T>();
// The two copies of the path: probes compiled in, and compiled out.
HITMAP_KMEM_COPIES(true)
HITMAP_KMEM_COPIES(false)
#undef HITMAP_KMEM_COPIES

} // namespace hitmap::engine
