#pragma once
// The struct types the engine models and their real kernel layouts (reference/memcg.md).
#include "engine/layout/layout.hpp"

#include <array>
#include <span>
#include <string_view>

namespace hitmap::engine {

// Field ids of struct page_counter, the same in every version.
namespace pc {
enum Field : FieldId {
    usage,
    min,
    low,
    high,
    max,
    emin,
    min_usage,
    children_min_usage,
    elow,
    low_usage,
    children_low_usage,
    watermark,
    local_watermark,
    failcnt,
    protection_support,
    track_failcnt,
    parent,
    kCount
};
// The limits every charge reads, so the fields whose transfers padding is meant to remove:
// page_counter_try_charge() reads max and propagate_protected_usage() reads min and low at each
// level (mm/page_counter.c, v6.0), try_charge()'s high check reads high at each level
// (mm/memcontrol.c, v6.0). emin and elow are computed by reclaim, not by the charge path.
inline constexpr std::array<Field, 4> kLimitFields{min, low, high, max};
} // namespace pc

// Field ids of struct memcg_stock_pcp: the per-CPU page charge cache, and the object stock
// of kernel-memory accounting (v5.10+). After Waiman Long's patch 2 the object stock also caches
// the pgdat and slab byte counts; after patch 4 (v5.14) it is two struct obj_stock, task_obj
// (the fields without a prefix) and irq_obj, which no modelled path uses (nothing allocates from
// interrupts).
namespace stock {
enum Field : FieldId {
    cached,
    nr_pages,
    cached_objcg,
    nr_bytes,
    cached_pgdat,
    nr_slab_reclaimable_b,
    nr_slab_unreclaimable_b,
    irq_cached_objcg,
    irq_cached_pgdat,
    irq_nr_bytes,
    irq_nr_slab_reclaimable_b,
    irq_nr_slab_unreclaimable_b,
    kCount
};
}

// Field ids of the model's per-CPU memcg statistics: three per-CPU variables of the kernel
// (memcg->vmstats_percpu->state[MEMCG_SOCK], the stats_updates count and the cgroup's
// rstat_cpu->updated_next link) grouped in one object per CPU, and of the global atomic_t
// stats_flush_threshold (mm/memcontrol.c, v6.0).
namespace vmstat {
enum Field : FieldId { state_sock, stats_updates, updated_next, kCount };
}
namespace stats_global {
enum Field : FieldId { stats_flush_threshold, kCount };
}

// Field ids of the 2009 struct res_counter (include/linux/res_counter.h, v2.6.31), and of the
// 2.6.31 css reference count every page charge takes (atomic_t css.refcnt).
namespace rc {
enum Field : FieldId { usage, max_usage, limit, failcnt, lock, parent, kCount };
}
namespace css31 {
enum Field : FieldId { refcnt, kCount };
}

const StructType& page_counter_type();
const StructType& res_counter_type();
const StructType& css_v2_6_31_type();
const StructType& memcg_stock_type();
const StructType& memcg_percpu_stats_type();
const StructType& memcg_stats_global_type();

// Every built-in struct type.
std::span<const StructType* const> struct_types();

// The size of a field's C type (8 for longs and pointers, 4 for unsigned int, 1 for bool):
// a layout must give each field exactly this size.
std::uint32_t natural_field_size(const StructType& type, FieldId field);
// The field every charge read-modify-writes: page_counter's usage, mem_cgroup's memory.usage,
// res_counter's usage. Reports total the transfers of the lines that hold one.
bool is_charged_usage(const StructType& type, std::string_view field);
// A built-in struct type or a plugin's (layout_registry.hpp) by name.
const StructType* find_struct_type(std::string_view name);

// Built-in layouts: page_counter v6.0 (112 B), v6.1 (192 B), v6.15 (192 B); struct mem_cgroup
// v5.12, v6.0, v6.1, v6.15 around them (mem_cgroup_layout.hpp); memcg_stock_pcp v5.10 (until
// v5.13), v5.13+p2 (Waiman Long's patch 2) and v5.14 (patch 4); the kmem structs
// (kmem_layouts.hpp); the memcg
// statistics memcg_percpu_stats and memcg_stats_global "v6.0"; res_counter and
// cgroup_subsys_state "v2.6.31".
std::span<const Layout> builtin_layouts();
const Layout* find_builtin_layout(std::string_view struct_name, std::string_view version);

} // namespace hitmap::engine
