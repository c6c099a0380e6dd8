#include "engine/layout/kmem_layouts.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

const StructType& obj_cgroup_type() {
    static const StructType type{
        "obj_cgroup",
        {"refcnt.percpu_count_ptr", "refcnt.data", "memcg", "nr_charged_bytes", "list.next"}};
    return type;
}

const StructType& objcg_vector_type() {
    static const StructType type = [] {
        StructType t{"objcgs", {}};
        for (unsigned i = 0; i < kMaxObjcgsPerSlab; ++i)
            t.fields.push_back(fmt::format("objcgs[{}]", i));
        return t;
    }();
    return type;
}

const StructType& pipe_ring_type() {
    static const StructType type = [] {
        StructType t{"hackbench_pipe", {"head", "closed", "tail"}};
        for (unsigned i = 0; i < pipe_ring::kSlots; ++i)
            t.fields.push_back(fmt::format("slot[{}]", i));
        return t;
    }();
    return type;
}

const StructType& slab_page_type() {
    static const StructType type{"page",
                                 {"flags", "slab_cache", "freelist", "counters", "memcg_data"}};
    return type;
}

const StructType& mem_cgroup_per_node_type() {
    static const StructType type{
        "mem_cgroup_per_node",
        {"lruvec_stat[NR_SLAB_RECLAIMABLE_B]", "lruvec_stat[NR_SLAB_UNRECLAIMABLE_B]"}};
    return type;
}

const StructType& slab_stats_cpu_type() {
    static const StructType type{"slab_stats_cpu",
                                 {"vmstats_percpu.state[NR_SLAB_UNRECLAIMABLE_B]",
                                  "lruvec_stat_local[NR_SLAB_UNRECLAIMABLE_B]",
                                  "lruvec_stat_cpu[NR_SLAB_UNRECLAIMABLE_B]",
                                  "rstat_cpu.updated_next"}};
    return type;
}

std::uint32_t kmem_natural_field_size(const StructType& type, FieldId field) {
    if (&type == &obj_cgroup_type())
        return field == objcg::nr_charged_bytes ? 4 : 8; // atomic_t
    return 8;
}

namespace {

Layout layout_of(const StructType& type, std::string version, std::uint32_t size,
                 std::uint32_t align, std::vector<std::pair<FieldId, std::uint32_t>> offsets) {
    Layout l{&type, std::move(version), size, align, {}};
    l.placement.resize(type.fields.size());
    for (const auto& [field, offset] : offsets)
        l.placement[field] = FieldPlacement{offset, kmem_natural_field_size(type, field)};
    return l;
}

Layout objcg_vector(unsigned objects) {
    std::vector<std::pair<FieldId, std::uint32_t>> offsets;
    for (unsigned i = 0; i < objects; ++i)
        offsets.emplace_back(static_cast<FieldId>(i), i * 8);
    // kcalloc of objects * 8 bytes: kmalloc-64 and up are line-aligned in SLUB without debug.
    return layout_of(objcg_vector_type(), std::to_string(objects), objects * 8, 64, offsets);
}

} // namespace

void append_kmem_layouts(std::vector<Layout>& layouts) {
    using namespace objcg;
    // percpu_ref is {percpu_count_ptr, data} since v5.10; list/rcu is a union of 16 bytes.
    layouts.push_back(layout_of(obj_cgroup_type(), "v5.10", 48, 8,
                                {{percpu_count_ptr, 0},
                                 {ref_data, 8},
                                 {memcg, 16},
                                 {nr_charged_bytes, 24},
                                 {list_next, 32}}));
    layouts.push_back(objcg_vector(8));   // kmalloc-4k: an order-3 slab of 8 objects
    layouts.push_back(objcg_vector(128)); // kmalloc-32: 128 objects in one page
    layouts.push_back(layout_of(slab_page_type(), "v5.11", 64, 64,
                                {{slab_page::flags, 0},
                                 {slab_page::slab_cache, 24},
                                 {slab_page::freelist, 32},
                                 {slab_page::counters, 40},
                                 {slab_page::memcg_data, 56}}));
    // lruvec_stat[] by node_stat_item: the five LRU lists, then NR_SLAB_RECLAIMABLE_B (5) and
    // NR_SLAB_UNRECLAIMABLE_B (6); the array's line phase within the struct is assumed 0.
    layouts.push_back(
        layout_of(mem_cgroup_per_node_type(), "v5.12", 64, 64,
                  {{pernode::slab_reclaimable_b, 40}, {pernode::slab_unreclaimable_b, 48}}));
    std::vector<std::pair<FieldId, std::uint32_t>> pipe{
        {pipe_ring::head, 0}, {pipe_ring::closed, 8}, {pipe_ring::tail, 64}};
    for (unsigned i = 0; i < pipe_ring::kSlots; ++i)
        pipe.emplace_back(static_cast<FieldId>(pipe_ring::slots_begin + i), 128 + 8 * i);
    layouts.push_back(
        layout_of(pipe_ring_type(), "model", 128 + 8 * pipe_ring::kSlots, 64, std::move(pipe)));
    layouts.push_back(layout_of(slab_stats_cpu_type(), "v5.13", 32, 8,
                                {{slabstat::memcg_state, 0},
                                 {slabstat::lruvec_local, 8},
                                 {slabstat::lruvec_batch, 16},
                                 {slabstat::updated_next, 24}}));
}

} // namespace hitmap::engine
