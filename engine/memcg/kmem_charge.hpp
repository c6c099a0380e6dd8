#pragma once
// Kernel-memory accounting through obj_cgroup and the per-CPU object stock (mm/memcontrol.c,
// v5.12 and Waiman Long's 2021 series "mm/memcg: Reduce kmemcache memory accounting overhead",
// merged for v5.14; docs/LAYOUTS.md walks each path). A slab object of `size` bytes is charged
// in bytes to its obj_cgroup out of this CPU's object stock; whole pages go through the page
// stock (try_charge) and, on cgroup v1, straight to the hierarchical memcg->kmem counter.
#include "engine/memcg/charge_stock.hpp"
#include "engine/memcg/obj_cgroup.hpp"
#include "engine/memcg/page_size.hpp"
#include "engine/runtime/cpu_section.hpp"

namespace hitmap::engine {

// The patch levels are cumulative, as the series is; each flag is one patch's change.
struct KmemSemantics {
    bool cgroup_v1 = false; // charge memcg->kmem with every page charge (and memsw with memory)
    // Patches 1-2: mod_objcg_state() moves into memcontrol.c and caches the pgdat and the slab
    // byte counts in the object stock, emitting past a page; the stock reads nr_charged_bytes
    // before exchanging it.
    bool cache_vmstat = false;
    bool conditional_xchg = false;
    // Patch 3 (merged as allow_uncharge): an uncharge that brings the stock past the threshold
    // gives back only the whole pages and keeps the objcg and the remainder cached.
    bool uncharge_whole_pages = false;
    // Patch 4: the task path protects the stock with preempt_disable, not irq save/restore.
    bool task_stock = false;
    // refill_obj_stock() acts once the stock holds more than this many pages (1 in the kernel;
    // 32 in Roman Gushchin's experiment in seed 004).
    unsigned drain_pages = 1;
};

struct KmemCounters {
    std::uint64_t obj_stock_hits = 0;    // charges served by the object stock
    std::uint64_t page_charges = 0;      // obj_cgroup_charge_pages() calls
    std::uint64_t page_uncharges = 0;    // obj_cgroup_uncharge_pages() calls
    std::uint64_t drains = 0;            // drain_obj_stock() with an objcg cached
    std::uint64_t charged_bytes_rmw = 0; // atomic xchg or add on obj_cgroup.nr_charged_bytes
    std::uint64_t failures = 0;          // charges refused at a limit
};

// One CPU's obj_cgroup charging: its object stock lives in `stock` (struct memcg_stock_pcp,
// whose layout picks the series' shape), page charges go through `pages`.
class KmemCharger {
public:
    KmemCharger(ChargeStock& stock, MemcgCharger& pages, SlabStatsCpu& stats,
                KmemCounters& counters, KmemSemantics semantics)
        : stock_(stock)
        , pages_(pages)
        , stats_(stats)
        , counters_(counters)
        , s_(semantics) {}

    // obj_cgroup_charge(): false when a limit refuses the pages.
    template <bool Traced = true> bool charge(ObjCgroup& objcg, unsigned size);
    // obj_cgroup_uncharge() = refill_obj_stock(objcg, size[, allow_uncharge]).
    template <bool Traced = true> void uncharge(ObjCgroup& objcg, unsigned size);
    // mod_objcg_state(objcg, pgdat, NR_SLAB_UNRECLAIMABLE_B, nr): ±obj_full_size per object.
    template <bool Traced = true> void mod_state(ObjCgroup& objcg, std::int64_t nr);
    // drain_obj_stock() and the page stock's drain: what a CPU gives back at the end.
    template <bool Traced = true> void drain();

private:
    CpuSection::Kind obj_section() const {
        return s_.task_stock ? CpuSection::Kind::preempt : CpuSection::Kind::irq;
    }
    template <bool Traced> ObjCgroup* cached(Site site) const;
    template <bool Traced> bool consume(ObjCgroup& objcg, unsigned nr_bytes);
    template <bool Traced> void refill(ObjCgroup& objcg, unsigned nr_bytes, bool allow_uncharge);
    template <bool Traced> void cache(ObjCgroup& objcg, Site site);
    template <bool Traced> void drain_locked();
    template <bool Traced> bool charge_pages(ObjCgroup& objcg, unsigned nr_pages);
    template <bool Traced> void uncharge_pages(ObjCgroup& objcg, unsigned nr_pages);
    template <bool Traced> void mod_mlstate(ObjCgroup& objcg, std::int64_t nr);

    ChargeStock& stock_;
    MemcgCharger& pages_;
    SlabStatsCpu& stats_;
    KmemCounters& counters_;
    KmemSemantics s_;
};

} // namespace hitmap::engine
