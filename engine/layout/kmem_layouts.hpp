#pragma once
// The structs of kernel-memory (slab) accounting, v5.10-v5.14 (seeds 000 and 004): struct
// obj_cgroup, the per-slab vector of obj_cgroup pointers, the slab's struct page, the per-node
// lruvec statistics of a memcg and the per-CPU statistics a slab event updates. The object
// stock is part of struct memcg_stock_pcp (builtin_layouts.hpp, stock::). Offsets are derived
// for x86-64 in docs/LAYOUTS.md from the v5.10.y/v5.13/v5.14 sources.
#include "engine/layout/layout.hpp"

#include <vector>

namespace hitmap::engine {

// struct obj_cgroup (include/linux/memcontrol.h, v5.10-v5.13): 48 bytes from kzalloc, so one
// line holds the refcount's per-CPU pointer, the memcg pointer and nr_charged_bytes.
namespace objcg {
enum Field : FieldId { percpu_count_ptr, ref_data, memcg, nr_charged_bytes, list_next, kCount };
}

// page_objcgs(page): kcalloc_node(objects, sizeof(struct obj_cgroup *)), 8 pointers per line.
inline constexpr unsigned kMaxObjcgsPerSlab = 128;

// struct page as a SLUB slab page (v5.11-v5.16): SLUB's freelist and counters, updated with
// cmpxchg_double on remote frees, share the one line with memcg_data.
namespace slab_page {
enum Field : FieldId { flags, slab_cache, freelist, counters, memcg_data, kCount };
}

// struct mem_cgroup_per_node: the per-node lruvec counters, atomic_long_t, which every
// ancestor's copy receives once a CPU's batch passes the threshold.
namespace pernode {
enum Field : FieldId { slab_reclaimable_b, slab_unreclaimable_b, kCount };
}

// One CPU's slab statistics (owner only), grouped as the model's one object per CPU: the
// memcg's per-CPU state (rstat, v5.13), the lruvec's per-CPU local and batched counters and the
// cgroup's rstat_cpu->updated_next link.
namespace slabstat {
enum Field : FieldId { memcg_state, lruvec_local, lruvec_batch, updated_next, kCount };
}

// The model's stand-in for hackbench's pipe between a sender and a receiver: a ring of slots
// (the messages: pointers to the objects) with the producer's and consumer's indices on lines
// of their own, as a pipe's buffer and its head and tail are.
namespace pipe_ring {
enum Field : FieldId { head, closed, tail, slots_begin, kCount = slots_begin + 64 };
inline constexpr unsigned kSlots = 64;
} // namespace pipe_ring

const StructType& obj_cgroup_type();
const StructType& pipe_ring_type();
const StructType& objcg_vector_type(); // fields objcgs[0] .. objcgs[127]
const StructType& slab_page_type();
const StructType& mem_cgroup_per_node_type();
const StructType& slab_stats_cpu_type();

// obj_cgroup v5.10, objcgs "8" and "128" (objects per slab), page v5.11,
// mem_cgroup_per_node v5.12, slab_stats_cpu v5.13, hackbench_pipe "model".
void append_kmem_layouts(std::vector<Layout>& layouts);
std::uint32_t kmem_natural_field_size(const StructType& type, FieldId field);

} // namespace hitmap::engine
