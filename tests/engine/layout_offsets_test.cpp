// The built-in layouts against an independent derivation: the kernel's struct definitions,
// written out here as C structs with the kernel's field lists (x86-64, CONFIG_SMP, 64-byte
// lines: atomic_long_t = long, ____cacheline_internodealigned_in_smp and CACHELINE_PADDING()
// = a zero-size member aligned to the line), compiled by this test, so that offsetof and
// sizeof come from the compiler rather than from a second copy of the table.
//
// Sources: v6.0 — include/linux/page_counter.h as in torvalds/linux (read at 0d3001e2690a:
// usage, min, low, high, max, emin, min_usage, children_min_usage, elow, low_usage,
// children_low_usage, watermark, failcnt, parent); v6.1 — Shakeel Butt's "mm: page_counter:
// rearrange struct page_counter fields" (PC_PADDING after usage and after failcnt, struct
// aligned to the line); v6.15 — "page_counter: track failcnt only for legacy cgroups" and
// "reduce struct page_counter size" (failcnt beside usage, local_watermark from c6f53ed8f213a,
// protection_support and track_failcnt at the head of the third line), as summarised with
// their offsets in reference/memcg.md §1.1-1.3. memcg_stock_pcp v5.10: mm/memcontrol.c
// (cached, nr_pages, cached_objcg and nr_bytes under CONFIG_MEMCG_KMEM, the drain work, flags).
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <cstddef>
#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

using atomic_long_t = long;
struct cacheline_padding {
    alignas(64) char x[0];
};

struct page_counter_v6_0 {
    atomic_long_t usage;
    unsigned long min, low, high, max;
    unsigned long emin;
    atomic_long_t min_usage, children_min_usage;
    unsigned long elow;
    atomic_long_t low_usage, children_low_usage;
    unsigned long watermark, failcnt;
    page_counter_v6_0* parent;
};

struct alignas(64) page_counter_v6_1 {
    atomic_long_t usage;
    cacheline_padding _pad1_;
    unsigned long emin;
    atomic_long_t min_usage, children_min_usage;
    unsigned long elow;
    atomic_long_t low_usage, children_low_usage;
    unsigned long watermark, failcnt;
    cacheline_padding _pad2_;
    unsigned long min, low, high, max;
    page_counter_v6_1* parent;
};

struct alignas(64) page_counter_v6_15 {
    atomic_long_t usage;
    unsigned long failcnt;
    cacheline_padding _pad1_;
    unsigned long emin;
    atomic_long_t min_usage, children_min_usage;
    unsigned long elow;
    atomic_long_t low_usage, children_low_usage;
    unsigned long watermark, local_watermark;
    cacheline_padding _pad2_;
    bool protection_support, track_failcnt;
    unsigned long min, low, high, max;
    page_counter_v6_15* parent;
};

struct list_head {
    list_head *next, *prev;
};
struct work_struct {
    atomic_long_t data;
    list_head entry;
    void (*func)(work_struct*);
};
struct memcg_stock_pcp_v5_10 { // CONFIG_MEMCG_KMEM=y, as distributions build
    void* cached;
    unsigned int nr_pages;
    void* cached_objcg;
    unsigned int nr_bytes;
    work_struct work;
    unsigned long flags;
};

// Waiman Long's 2021 series: patch 2 caches the pgdat and slab byte counts in the stock; patch 4
// (v5.14-v5.17) splits the object stock into task_obj and irq_obj (mm/memcontrol.c).
struct memcg_stock_pcp_p2 {
    void* cached;
    unsigned int nr_pages;
    void* cached_objcg;
    void* cached_pgdat;
    unsigned int nr_bytes;
    int nr_slab_reclaimable_b;
    int nr_slab_unreclaimable_b;
    work_struct work;
    unsigned long flags;
};
struct obj_stock {
    void* cached_objcg;
    void* cached_pgdat;
    unsigned int nr_bytes;
    int nr_slab_reclaimable_b;
    int nr_slab_unreclaimable_b;
};
struct memcg_stock_pcp_v5_14 {
    void* cached;
    unsigned int nr_pages;
    obj_stock task_obj;
    obj_stock irq_obj;
    work_struct work;
    unsigned long flags;
};

// struct obj_cgroup (include/linux/memcontrol.h, v5.10-v5.13) and the SLUB slab's struct page
// (include/linux/mm_types.h, v5.11-v5.16: flags, the slab_list union, slab_cache, freelist,
// counters, _mapcount, _refcount, memcg_data).
struct list_head_kmem {
    void *next, *prev;
};
struct obj_cgroup_v5_10 {
    struct {
        unsigned long percpu_count_ptr;
        void* data;
    } refcnt;
    void* memcg;
    int nr_charged_bytes;
    list_head_kmem list;
};
struct page_slab_v5_11 {
    unsigned long flags;
    list_head_kmem slab_list;
    void* slab_cache;
    void* freelist;
    unsigned long counters;
    int mapcount;
    int refcount;
    unsigned long memcg_data;
};

// struct mem_cgroup v6.0 (include/linux/memcontrol.h) from its head to tcpmem, with struct
// cgroup_subsys_state of v6.0 (include/linux/cgroup-defs.h): cgroup, ss, refcnt, sibling,
// children, rstat_css_node, id, flags, serial_nr, online_cnt, destroy_work, destroy_rwork,
// parent. Feng Tang's measurement of memory at +0xd0 in the seed-001 thread confirms the sum.
struct percpu_ref {
    unsigned long percpu_count_ptr;
    void* data;
};
struct rcu_head {
    rcu_head* next;
    void (*func)(rcu_head*);
};
struct rcu_work {
    work_struct work;
    rcu_head rcu;
    void* wq;
};
struct cgroup_subsys_state_v6_0 {
    void* cgroup;
    void* ss;
    percpu_ref refcnt;
    list_head sibling, children, rstat_css_node;
    int id;
    unsigned int flags;
    unsigned long long serial_nr;
    int online_cnt;
    work_struct destroy_work;
    rcu_work destroy_rwork;
    cgroup_subsys_state_v6_0* parent;
};
struct mem_cgroup_id {
    int id;
    int ref;
};
template <typename PageCounter> struct mem_cgroup_v6_0_head {
    cgroup_subsys_state_v6_0 css;
    mem_cgroup_id id;
    PageCounter memory;
    union {
        PageCounter swap;
        PageCounter memsw;
    };
    PageCounter kmem;
    PageCounter tcpmem;
};

struct Expected {
    const char* field;
    std::size_t offset, size;
};

void expect_layout(const char* struct_name, const char* version, std::size_t size,
                   std::initializer_list<Expected> fields) {
    const Layout* layout = find_builtin_layout(struct_name, version);
    ASSERT_NE(layout, nullptr) << struct_name << " " << version;
    EXPECT_EQ(layout->size, size) << version;
    std::size_t placed = 0;
    for (FieldId f = 0; f < layout->placement.size(); ++f)
        placed += layout->has(f);
    EXPECT_EQ(placed, fields.size()) << version << ": the table places other fields";
    for (const auto& e : fields) {
        const auto id = layout->type->field_id(e.field);
        ASSERT_TRUE(id && layout->has(*id)) << version << " lacks " << e.field;
        EXPECT_EQ(layout->at(*id).offset, e.offset) << version << " " << e.field;
        EXPECT_EQ(layout->at(*id).size, e.size) << version << " " << e.field;
    }
}

#define FIELD(S, f)                                                                                \
    Expected {                                                                                     \
#f, offsetof(S, f), sizeof(S::f)                                                           \
    }

TEST(LayoutOffsets, PageCounterV6_0IsTheKernelStruct) {
    using S = page_counter_v6_0;
    expect_layout("page_counter", "v6.0", sizeof(S),
                  {FIELD(S, usage), FIELD(S, min), FIELD(S, low), FIELD(S, high), FIELD(S, max),
                   FIELD(S, emin), FIELD(S, min_usage), FIELD(S, children_min_usage),
                   FIELD(S, elow), FIELD(S, low_usage), FIELD(S, children_low_usage),
                   FIELD(S, watermark), FIELD(S, failcnt), FIELD(S, parent)});
}

TEST(LayoutOffsets, PageCounterV6_1IsTheKernelStruct) {
    using S = page_counter_v6_1;
    expect_layout("page_counter", "v6.1", sizeof(S),
                  {FIELD(S, usage), FIELD(S, min), FIELD(S, low), FIELD(S, high), FIELD(S, max),
                   FIELD(S, emin), FIELD(S, min_usage), FIELD(S, children_min_usage),
                   FIELD(S, elow), FIELD(S, low_usage), FIELD(S, children_low_usage),
                   FIELD(S, watermark), FIELD(S, failcnt), FIELD(S, parent)});
}

TEST(LayoutOffsets, PageCounterV6_15IsTheKernelStruct) {
    using S = page_counter_v6_15;
    expect_layout("page_counter", "v6.15", sizeof(S),
                  {FIELD(S, usage), FIELD(S, failcnt), FIELD(S, min), FIELD(S, low), FIELD(S, high),
                   FIELD(S, max), FIELD(S, emin), FIELD(S, min_usage), FIELD(S, children_min_usage),
                   FIELD(S, elow), FIELD(S, low_usage), FIELD(S, children_low_usage),
                   FIELD(S, watermark), FIELD(S, local_watermark), FIELD(S, protection_support),
                   FIELD(S, track_failcnt), FIELD(S, parent)});
}

// The head of struct mem_cgroup, where the page_counters sit: v6.0, patch 2 alone (the padded
// counter in the 6.0-rc1 struct) and v6.1, whose head is the same member list.
template <typename S> void expect_mem_cgroup_head(const Layout& layout) {
    SCOPED_TRACE(layout.version);
    const auto at = [&](FieldId f) { return layout.at(f).offset; };
    EXPECT_EQ(sizeof(cgroup_subsys_state_v6_0), 200u);
    EXPECT_EQ(at(mcg::css_cgroup), offsetof(S, css.cgroup));
    EXPECT_EQ(at(mcg::css_refcnt), offsetof(S, css.refcnt.percpu_count_ptr));
    EXPECT_EQ(at(mcg::css_parent), offsetof(S, css.parent));
    EXPECT_EQ(at(mcg::id), offsetof(S, id.id));
    EXPECT_EQ(at(counter_field(Counter::memory, pc::usage)), offsetof(S, memory.usage));
    EXPECT_EQ(at(counter_field(Counter::memory, pc::high)), offsetof(S, memory.high));
    EXPECT_EQ(at(counter_field(Counter::memory, pc::parent)), offsetof(S, memory.parent));
    EXPECT_EQ(at(counter_field(Counter::swap, pc::usage)), offsetof(S, swap.usage));
    EXPECT_EQ(at(counter_field(Counter::swap, pc::high)), offsetof(S, swap.high));
    EXPECT_EQ(at(counter_field(Counter::kmem, pc::usage)), offsetof(S, kmem.usage));
    EXPECT_EQ(at(counter_field(Counter::tcpmem, pc::usage)), offsetof(S, tcpmem.usage));
    EXPECT_EQ(at(counter_field(Counter::tcpmem, pc::parent)), offsetof(S, tcpmem.parent));
    EXPECT_GE(at(mcg::socket_pressure), sizeof(S)); // the tail follows the counters
}

TEST(LayoutOffsets, MemCgroupHeadIsTheKernelStruct) {
    using V60 = mem_cgroup_v6_0_head<page_counter_v6_0>;
    using V61 = mem_cgroup_v6_0_head<page_counter_v6_1>;
    EXPECT_EQ(offsetof(V60, memory), 0xd0u);
    EXPECT_EQ(offsetof(V61, memory), 0x100u);
    expect_mem_cgroup_head<V60>(*find_builtin_layout("mem_cgroup", "v6.0"));
    expect_mem_cgroup_head<V61>(
        compose_mem_cgroup("v6.0", *find_builtin_layout("page_counter", "v6.1")));
    expect_mem_cgroup_head<V61>(*find_builtin_layout("mem_cgroup", "v6.1"));
}

TEST(LayoutOffsets, MemcgStockV5_10IsTheKernelStruct) {
    using S = memcg_stock_pcp_v5_10;
    expect_layout(
        "memcg_stock_pcp", "v5.10", sizeof(S),
        {FIELD(S, cached), FIELD(S, nr_pages), FIELD(S, cached_objcg), FIELD(S, nr_bytes)});
}

TEST(LayoutOffsets, MemcgStockOfTheSeriesIsTheKernelStruct) {
    using P2 = memcg_stock_pcp_p2;
    expect_layout("memcg_stock_pcp", "v5.13+p2", sizeof(P2),
                  {FIELD(P2, cached), FIELD(P2, nr_pages), FIELD(P2, cached_objcg),
                   FIELD(P2, cached_pgdat), FIELD(P2, nr_bytes), FIELD(P2, nr_slab_reclaimable_b),
                   FIELD(P2, nr_slab_unreclaimable_b)});
    using S = memcg_stock_pcp_v5_14;
    const auto task = offsetof(S, task_obj), irq = offsetof(S, irq_obj);
    expect_layout(
        "memcg_stock_pcp", "v5.14", sizeof(S),
        {FIELD(S, cached),
         FIELD(S, nr_pages),
         {"cached_objcg", task + offsetof(obj_stock, cached_objcg), 8},
         {"cached_pgdat", task + offsetof(obj_stock, cached_pgdat), 8},
         {"nr_bytes", task + offsetof(obj_stock, nr_bytes), 4},
         {"nr_slab_reclaimable_b", task + offsetof(obj_stock, nr_slab_reclaimable_b), 4},
         {"nr_slab_unreclaimable_b", task + offsetof(obj_stock, nr_slab_unreclaimable_b), 4},
         {"irq_obj.cached_objcg", irq + offsetof(obj_stock, cached_objcg), 8},
         {"irq_obj.cached_pgdat", irq + offsetof(obj_stock, cached_pgdat), 8},
         {"irq_obj.nr_bytes", irq + offsetof(obj_stock, nr_bytes), 4},
         {"irq_obj.nr_slab_reclaimable_b", irq + offsetof(obj_stock, nr_slab_reclaimable_b), 4},
         {"irq_obj.nr_slab_unreclaimable_b", irq + offsetof(obj_stock, nr_slab_unreclaimable_b),
          4}});
}

TEST(LayoutOffsets, ObjCgroupAndTheSlabPageAreTheKernelStructs) {
    using O = obj_cgroup_v5_10;
    expect_layout("obj_cgroup", "v5.10", sizeof(O),
                  {{"refcnt.percpu_count_ptr", offsetof(O, refcnt.percpu_count_ptr), 8},
                   {"refcnt.data", offsetof(O, refcnt.data), 8},
                   FIELD(O, memcg),
                   FIELD(O, nr_charged_bytes),
                   {"list.next", offsetof(O, list.next), 8}});
    using P = page_slab_v5_11;
    expect_layout("page", "v5.11", sizeof(P),
                  {FIELD(P, flags), FIELD(P, slab_cache), FIELD(P, freelist), FIELD(P, counters),
                   FIELD(P, memcg_data)});
}

// v5.12's head: css and id as v6.0's (the 16-byte percpu_ref since v5.10), page_counter with
// parent last (v5.11+), so memory at 208, memsw 320, kmem 432, tcpmem 544.
TEST(LayoutOffsets, MemCgroupV5_12HeadPlacesKmemWhereTheSumsSay) {
    using V512 = mem_cgroup_v6_0_head<page_counter_v6_0>;
    const Layout& l = *find_builtin_layout("mem_cgroup", "v5.12");
    expect_mem_cgroup_head<V512>(l);
    EXPECT_EQ(l.at(counter_field(Counter::kmem, pc::usage)).offset, 432u);
    EXPECT_EQ(l.at(counter_field(Counter::swap, pc::usage)).offset, 320u);
}

} // namespace
} // namespace hitmap::engine
