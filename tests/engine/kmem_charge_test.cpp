// Kernel-memory accounting (seeds 000 and 004): what each patch level of Waiman Long's series
// does to one CPU's object stock, the byte and page bookkeeping that must balance whatever the
// level, and the accesses of a remote free written out from the v5.12 paths (mm/slab.h
// memcg_slab_free_hook(), mm/memcontrol.c refill_obj_stock(), drain_obj_stock(),
// __memcg_kmem_uncharge(); docs/LAYOUTS.md).
#include "engine/probe/trace_buffer.hpp"
#include "engine/workloads/kmem_world.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

struct World {
    World(const std::string& variant, bool v1, unsigned size, unsigned cpus = 1)
        : world(registry, kmem_variant(variant), config(v1, size, cpus)) {}
    static KmemWorldConfig config(bool v1, unsigned size, unsigned cpus) {
        KmemWorldConfig c;
        c.cpus = cpus;
        c.cgroup_v1 = v1;
        c.object_size = size;
        c.slabs_per_cpu = 3;
        return c;
    }
    // The seed's loop: `allocs` allocations, then as many frees, `loops` times, on CPU 0.
    void loop(unsigned loops, unsigned allocs = 4) {
        KmemAllocator& a = world.allocator(0);
        std::vector<SlabObject> held;
        for (unsigned i = 0; i < loops; ++i) {
            for (unsigned k = 0; k < allocs; ++k)
                held.push_back(*a.alloc(world.memcg(0)));
            for (const SlabObject& o : held)
                a.free(o);
            held.clear();
        }
    }
    std::uint64_t stat(const char* name) { return world.stats()[name].get<std::uint64_t>(); }

    ObjectRegistry registry;
    KmemWorld world;
};

// Whatever the level: once every object is freed and the stocks drained, the memcg is charged
// exactly the pages behind the byte remainder left in its obj_cgroup, and on cgroup v1 its kmem
// counter (and the root's) says the same; v2 never touches kmem.
TEST(KmemCharge, PagesAndBytesBalanceAtEveryPatchLevel) {
    for (const KmemVariant& v : kmem_variants()) {
        if (!v.accounting)
            continue;
        for (const bool v1 : {false, true})
            for (const unsigned size : {32u, 512u, 4096u}) {
                SCOPED_TRACE(fmt::format("{} {} {}", v.name, v1 ? "v1" : "v2", size));
                World w(v.name, v1, size);
                w.loop(200);
                w.world.drain(0);
                const std::int64_t pages = w.world.memcg(0).memory().usage();
                EXPECT_EQ(pages * 4096, w.world.objcg(0).charged_bytes());
                EXPECT_LT(w.world.objcg(0).charged_bytes(), 4096);
                EXPECT_EQ(w.world.root().memory().usage(), pages);
                EXPECT_EQ(w.world.memcg(0).kmem()->usage(), v1 ? pages : 0);
                EXPECT_EQ(w.world.root().kmem()->usage(), v1 ? pages : 0);
                EXPECT_EQ(w.stat("charge_failures"), 0u);
            }
    }
}

// 4 KiB objects (4104 bytes charged): before the series every free takes the stock past a page
// and drains it; patch 3 keeps the objcg cached and gives back only whole pages, so after the
// first loop nothing drains and nr_charged_bytes is left alone.
TEST(KmemCharge, Patch3StopsTheDrainOnEveryFree) {
    World none("none", false, 4096);
    none.loop(100);
    EXPECT_GE(none.stat("obj_stock_drains"), 400u);
    EXPECT_GE(none.stat("nr_charged_bytes_rmw"), 400u);

    World p3("1-3", false, 4096);
    p3.loop(100);
    EXPECT_LE(p3.stat("obj_stock_drains"), 1u);
    EXPECT_LE(p3.stat("nr_charged_bytes_rmw"), 1u);
    EXPECT_GE(p3.stat("obj_cgroup_uncharge_pages"), 400u);
}

// Patch 2 caches the slab byte counts: 32-byte objects (40 bytes charged) reach the lruvec
// statistics once per page's worth instead of on every event; nr_charged_bytes is read before
// it is exchanged, so a stock switching to an objcg with nothing left there does no RMW.
TEST(KmemCharge, Patch2CachesTheSlabStatistics) {
    const auto mlstate_calls = [](const char* variant) {
        World w(variant, false, 32);
        TraceBuffer buffer(1 << 20, TraceBuffer::read_tsc());
        {
            ThreadTraceScope scope(&buffer);
            w.loop(100);
            buffer.end_operation();
        }
        std::size_t n = 0;
        for (const TraceRecord& r : buffer.records())
            n += r.site == static_cast<std::uint16_t>(Site::mod_memcg_lruvec_state) &&
                 w.registry.at(r.object).layout.field_name(r.field) ==
                     "lruvec_stat_local[NR_SLAB_UNRECLAIMABLE_B]";
        return n;
    };
    EXPECT_EQ(mlstate_calls("none"), 800u); // every allocation and free
    EXPECT_LT(mlstate_calls("1-2"), 20u);   // 4 x 40 bytes never add up to a page
}

// The accesses of a 4 KiB object allocated on CPU 0 and freed on CPU 1 (v5.12, cgroup v2),
// CPU 1's stock empty: the free reads the vector line CPU 0 wrote, the refill switches CPU 1's
// stock to the objcg (xchg of nr_charged_bytes), goes past a page and drains it (a page back
// through the page stock, the remainder added to nr_charged_bytes), and the object goes onto the
// slab's page freelist with a cmpxchg.
TEST(KmemCharge, ARemoteFreeReadsTheVectorAndDrainsIntoTheObjcg) {
    World w("none", false, 4096, 2);
    const SlabObject object = *w.world.allocator(0).alloc(w.world.memcg(0));
    TraceBuffer buffer(1 << 12, TraceBuffer::read_tsc());
    {
        ThreadTraceScope scope(&buffer);
        w.world.allocator(1).free(object);
        buffer.end_operation();
    }
    std::vector<std::string> got;
    for (const TraceRecord& r : buffer.records()) {
        const ObjectInfo& o = w.registry.at(r.object);
        got.push_back(fmt::format("{} {} {} {}", o.name, o.layout.field_name(r.field),
                                  to_string(r.kind()), site_name(r.site)));
    }
    const std::vector<std::string> expected{
        // memcg_slab_free_hook(): page_objcgs(), objcgs[off], set NULL
        "kmalloc-4096/0/slab0 page memcg_data load memcg_slab_free_hook",
        "kmalloc-4096/0/slab0 objcgs objcgs[0] load memcg_slab_free_hook",
        "kmalloc-4096/0/slab0 objcgs objcgs[0] store memcg_slab_free_hook",
        // obj_cgroup_uncharge() = refill_obj_stock(): CPU 1's stock caches another objcg
        "stock/1 cached_objcg load refill_obj_stock",
        "stock/1 cached_objcg load drain_obj_stock", // nothing cached: nothing to drain
        "test objcg refcnt.percpu_count_ptr load refill_obj_stock",
        "stock/1 cached_objcg store refill_obj_stock",
        "test objcg nr_charged_bytes rmw refill_obj_stock", // v5.12: xchg unconditionally
        "stock/1 nr_bytes store refill_obj_stock",
        "stock/1 nr_bytes load refill_obj_stock",
        "stock/1 nr_bytes store refill_obj_stock", // 4104 > PAGE_SIZE: drain
        "stock/1 cached_objcg load drain_obj_stock",
        "stock/1 nr_bytes load drain_obj_stock",
        // one page back: obj_cgroup_uncharge_pages() -> refill_stock() on CPU 1
        "test objcg memcg load obj_cgroup_uncharge_pages",
        "test css.refcnt load obj_cgroup_uncharge_pages",
        "stock/1 cached load refill_stock",
        "stock/1 cached load drain_stock",
        "stock/1 cached store refill_stock",
        "stock/1 nr_pages load refill_stock",
        "stock/1 nr_pages store refill_stock",
        "test css.refcnt load obj_cgroup_uncharge_pages",
        // the 8-byte remainder into nr_charged_bytes, then the stock lets the objcg go
        "test objcg nr_charged_bytes rmw drain_obj_stock",
        "stock/1 nr_bytes store drain_obj_stock",
        "test objcg refcnt.percpu_count_ptr load drain_obj_stock",
        "stock/1 cached_objcg store drain_obj_stock",
        // mod_objcg_state(-4104): obj_cgroup_memcg(), then the memcg and lruvec statistics
        "test objcg memcg load mod_objcg_state",
        "test vmstats_percpu load mod_memcg_lruvec_state",
        "slabstats/1 vmstats_percpu.state[NR_SLAB_UNRECLAIMABLE_B] rmw mod_memcg_lruvec_state",
        "test css.cgroup load mod_memcg_lruvec_state",
        "slabstats/1 rstat_cpu.updated_next load mod_memcg_lruvec_state",
        "slabstats/1 rstat_cpu.updated_next store mod_memcg_lruvec_state",
        "slabstats/1 lruvec_stat_local[NR_SLAB_UNRECLAIMABLE_B] rmw mod_memcg_lruvec_state",
        "slabstats/1 lruvec_stat_cpu[NR_SLAB_UNRECLAIMABLE_B] load mod_memcg_lruvec_state",
        "slabstats/1 lruvec_stat_cpu[NR_SLAB_UNRECLAIMABLE_B] store mod_memcg_lruvec_state",
        "test objcg refcnt.percpu_count_ptr load memcg_slab_free_hook", // obj_cgroup_put()
        // kfree(): PageSlab(), the cache; not CPU 1's slab: __slab_free()'s cmpxchg
        "kmalloc-4096/0/slab0 page flags load __slab_free",
        "kmalloc-4096/0/slab0 page slab_cache load __slab_free",
        "kmalloc-4096/0/slab0 page freelist cas __slab_free",
    };
    EXPECT_EQ(got, expected);
}

} // namespace
} // namespace hitmap::engine
