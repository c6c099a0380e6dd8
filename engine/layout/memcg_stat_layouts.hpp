#pragma once
// The memcg statistics behind cgroup v1's memory.stat, v6.5 and v6.6 (seed 002; kernel facts
// and sources in docs/LAYOUTS.md): the items memcg1_stat_format() prints, where each sits in
// struct memcg_vmstats (a probed object per memcg) and in struct memcg_vmstats_percpu (per-CPU
// memory, engine/memcg/percpu_area.hpp), and the flush globals of mm/memcontrol.c.
//
// x86-64 with CONFIG_SWAP, CONFIG_NUMA_BALANCING, CONFIG_TRANSPARENT_HUGEPAGE, CONFIG_ZSWAP:
// NR_VM_NODE_STAT_ITEMS 43, MEMCG_NR_STAT 50, NR_MEMCG_EVENTS 19.
#include "engine/layout/layout.hpp"

#include <array>
#include <string_view>
#include <vector>

namespace hitmap::engine {

inline constexpr unsigned kMemcgNrStat = 50;
inline constexpr unsigned kMemcgNrEvents = 19;

// One item memory.stat prints: its kernel index (enum node_stat_item / memcg_stat_item, or its
// slot in memcg_vm_event_stat[]), its memory.stat name and the bytes per unit it prints in.
struct MemcgStatItem {
    unsigned index;
    std::string_view name;
    unsigned unit;
};
// memcg1_stats[] then the five LRU lists: the state items, in the order memory.stat prints them.
inline constexpr std::array<MemcgStatItem, 15> kMemcg1States{{
    {19, "cache", 4096},
    {17, "rss", 4096},
    {28, "rss_huge", 4096},
    {23, "shmem", 4096},
    {18, "mapped_file", 4096},
    {20, "dirty", 4096},
    {21, "writeback", 4096},
    {10, "workingset_refault_anon", 1},
    {11, "workingset_refault_file", 1},
    {43, "swap", 4096}, // MEMCG_SWAP
    {0, "inactive_anon", 4096},
    {1, "active_anon", 4096},
    {2, "inactive_file", 4096},
    {3, "active_file", 4096},
    {4, "unevictable", 4096},
}};
// memcg1_events[]: PGPGIN, PGPGOUT, PGFAULT, PGMAJFAULT by memcg_vm_event_stat[] slot.
inline constexpr std::array<MemcgStatItem, 4> kMemcg1Events{{
    {0, "pgpgin", 1},
    {1, "pgpgout", 1},
    {8, "pgfault", 1},
    {9, "pgmajfault", 1},
}};
inline constexpr unsigned kMemcg1Items = kMemcg1States.size() + kMemcg1Events.size();

// Field ids of struct memcg_vmstats: for each modelled item (i < kMemcg1Items; states first)
// its hierarchical value, its local value (v6.6) and what children left pending for it.
namespace vmstats {
enum Array : unsigned { value, local, pending, kArrays };
constexpr FieldId field(Array a, unsigned item) {
    return static_cast<FieldId>(a * kMemcg1Items + item);
}
} // namespace vmstats

// The flush globals of mm/memcontrol.c (v6.5/v6.6): two atomic_t and a u64, assumed adjacent
// in .bss as they are declared.
namespace flushglobal {
enum Field : FieldId { stats_flush_ongoing, stats_flush_threshold, flush_next_time, kCount };
}

// struct memcg_vmstats_percpu (1128 bytes, unchanged by the patch): an item's byte offset.
namespace vmstats_percpu {
inline constexpr std::uint32_t kSize = 1128;
constexpr std::uint32_t state(unsigned index) {
    return index * 8;
}
constexpr std::uint32_t events(unsigned slot) {
    return 400 + slot * 8;
}
constexpr std::uint32_t state_prev(unsigned index) {
    return 552 + index * 8;
}
constexpr std::uint32_t events_prev(unsigned slot) {
    return 952 + slot * 8;
}
} // namespace vmstats_percpu

// struct cgroup_rstat_cpu (include/linux/cgroup-defs.h) without CONFIG_SCHED_CORE: a
// u64_stats_sync (empty on 64-bit), struct cgroup_base_stat of 24 bytes each — bstat and
// last_bstat in v6.5; v6.6 adds subtree_bstat and last_subtree_bstat — then the updated-tree
// links. Sizes counted from the source, not pahole output.
struct RstatCpuLayout {
    std::uint32_t size;
    std::uint32_t updated_children;
    std::uint32_t updated_next;
};
inline constexpr RstatCpuLayout kRstatCpuV6_5{64, 48, 56};
inline constexpr RstatCpuLayout kRstatCpuV6_6{112, 96, 104};

const StructType& memcg_vmstats_type();
const StructType& memcg_flush_globals_type();
// memcg_vmstats "v6.5" (1104 B) and "v6.6" (1656 B), memcg_flush_globals "v6.5".
void append_memcg_stat_layouts(std::vector<Layout>& layouts);
// 0 when the type is not one of these.
std::uint32_t memcg_stat_natural_field_size(const StructType& type, FieldId field);

} // namespace hitmap::engine
