#include "engine/layout/builtin_layouts.hpp"

#include "engine/layout/composition.hpp"
#include "engine/layout/kmem_layouts.hpp"
#include "engine/layout/layout_registry.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"
#include "engine/layout/memcg_stat_layouts.hpp"

#include <array>
#include <utility>
#include <vector>

namespace hitmap::engine {

const StructType& page_counter_type() {
    static const StructType type = [] {
        using namespace pc;
        StructType t{"page_counter",
                     {"usage", "min", "low", "high", "max", "emin", "min_usage",
                      "children_min_usage", "elow", "low_usage", "children_low_usage", "watermark",
                      "local_watermark", "failcnt", "protection_support", "track_failcnt",
                      "parent"}};
        // The C types of include/linux/page_counter.h: the five usages are atomic_long_t,
        // parent a struct page_counter *, the rest unsigned long (v6.0); the switches
        // protection_support and track_failcnt are bool (v6.15).
        t.roles.assign(kCount, FieldRole::plain);
        for (const Field f : {usage, min_usage, children_min_usage, low_usage, children_low_usage})
            t.roles[f] = FieldRole::hot_counter;
        for (const Field f : kLimitFields)
            t.roles[f] = FieldRole::limit;
        t.roles[protection_support] = t.roles[track_failcnt] = FieldRole::flag;
        t.roles[parent] = FieldRole::parent;
        t.limits_read_by = "every charge (mm/page_counter.c, mm/memcontrol.c)";
        return t;
    }();
    return type;
}

const StructType& memcg_stock_type() {
    static const StructType type{
        "memcg_stock_pcp",
        {"cached", "nr_pages", "cached_objcg", "nr_bytes", "cached_pgdat", "nr_slab_reclaimable_b",
         "nr_slab_unreclaimable_b", "irq_obj.cached_objcg", "irq_obj.cached_pgdat",
         "irq_obj.nr_bytes", "irq_obj.nr_slab_reclaimable_b", "irq_obj.nr_slab_unreclaimable_b"}};
    return type;
}

const StructType& memcg_percpu_stats_type() {
    static const StructType type{
        "memcg_percpu_stats",
        {"vmstats_percpu.state[MEMCG_SOCK]", "stats_updates", "rstat_cpu.updated_next"}};
    return type;
}

const StructType& memcg_stats_global_type() {
    static const StructType type{"memcg_stats_global", {"stats_flush_threshold"}};
    return type;
}

const StructType& res_counter_type() {
    static const StructType type{"res_counter",
                                 {"usage", "max_usage", "limit", "failcnt", "lock", "parent"}};
    return type;
}

const StructType& css_v2_6_31_type() {
    static const StructType type{"cgroup_subsys_state", {"refcnt"}};
    return type;
}

std::span<const StructType* const> struct_types() {
    static const std::array<const StructType*, 15> types{
        &page_counter_type(),       &memcg_stock_type(),         &mem_cgroup_type(),
        &memcg_percpu_stats_type(), &memcg_stats_global_type(),  &res_counter_type(),
        &css_v2_6_31_type(),        &obj_cgroup_type(),          &objcg_vector_type(),
        &slab_page_type(),          &mem_cgroup_per_node_type(), &slab_stats_cpu_type(),
        &pipe_ring_type(),          &memcg_vmstats_type(),       &memcg_flush_globals_type()};
    return types;
}

const StructType* find_struct_type(std::string_view name) {
    for (const StructType* t : struct_types())
        if (t->name == name)
            return t;
    return find_plugin_struct_type(name);
}

std::uint32_t natural_field_size(const StructType& type, FieldId field) {
    if (const auto size = plugin_field_size(type, field))
        return *size;
    if (&type == &page_counter_type())
        return (field == pc::protection_support || field == pc::track_failcnt) ? 1 : 8;
    if (&type == &memcg_stock_type()) {
        using namespace stock;
        const bool is_int = field == nr_pages || field == nr_bytes ||
                            field == nr_slab_reclaimable_b || field == nr_slab_unreclaimable_b ||
                            field == irq_nr_bytes || field == irq_nr_slab_reclaimable_b ||
                            field == irq_nr_slab_unreclaimable_b;
        return is_int ? 4 : 8;
    }
    if (&type == &res_counter_type())
        return field == rc::lock ? 4 : 8; // spinlock_t: the 4-byte ticket lock, no debug
    if (&type == &css_v2_6_31_type())
        return 4;
    if (&type == &mem_cgroup_type() && field == mcg::id)
        return 4;
    // An embedded struct's field is as large as in the struct itself.
    if (const Composition* c = composition_of(type))
        if (const auto member = member_field(*c, field))
            return natural_field_size(*c->member, member->field);
    if (const std::uint32_t size = memcg_stat_natural_field_size(type, field))
        return size;
    return kmem_natural_field_size(type, field);
}

bool is_charged_usage(const StructType& type, std::string_view field) {
    if (&type == &mem_cgroup_type())
        return field == "memory.usage";
    return (&type == &page_counter_type() || &type == &res_counter_type()) && field == "usage";
}

namespace {

Layout make_layout(const StructType& type, std::string version, std::uint32_t size,
                   std::uint32_t align,
                   std::initializer_list<std::pair<FieldId, FieldPlacement>> fields) {
    Layout layout{&type, std::move(version), size, align, {}};
    layout.placement.resize(type.fields.size());
    for (const auto& [id, place] : fields)
        layout.placement[id] = place;
    return layout;
}

// Offsets computed for x86-64 in reference/memcg.md §1.1-1.3 and §2.2.
std::vector<Layout> make_builtin_layouts() {
    using namespace pc;
    const StructType& t = page_counter_type();
    std::vector<Layout> all;
    all.push_back(make_layout(t, "v6.0", 112, 8,
                              {{usage, {0, 8}},
                               {min, {8, 8}},
                               {low, {16, 8}},
                               {high, {24, 8}},
                               {max, {32, 8}},
                               {emin, {40, 8}},
                               {min_usage, {48, 8}},
                               {children_min_usage, {56, 8}},
                               {elow, {64, 8}},
                               {low_usage, {72, 8}},
                               {children_low_usage, {80, 8}},
                               {watermark, {88, 8}},
                               {failcnt, {96, 8}},
                               {parent, {104, 8}}}));
    all.push_back(make_layout(t, "v6.1", 192, 64,
                              {{usage, {0, 8}},
                               {emin, {64, 8}},
                               {min_usage, {72, 8}},
                               {children_min_usage, {80, 8}},
                               {elow, {88, 8}},
                               {low_usage, {96, 8}},
                               {children_low_usage, {104, 8}},
                               {watermark, {112, 8}},
                               {failcnt, {120, 8}},
                               {min, {128, 8}},
                               {low, {136, 8}},
                               {high, {144, 8}},
                               {max, {152, 8}},
                               {parent, {160, 8}}}));
    all.push_back(make_layout(t, "v6.15", 192, 64,
                              {{usage, {0, 8}},
                               {failcnt, {8, 8}},
                               {emin, {64, 8}},
                               {min_usage, {72, 8}},
                               {children_min_usage, {80, 8}},
                               {elow, {88, 8}},
                               {low_usage, {96, 8}},
                               {children_low_usage, {104, 8}},
                               {watermark, {112, 8}},
                               {local_watermark, {120, 8}},
                               {protection_support, {128, 1}},
                               {track_failcnt, {129, 1}},
                               {min, {136, 8}},
                               {low, {144, 8}},
                               {high, {152, 8}},
                               {max, {160, 8}},
                               {parent, {168, 8}}}));
    // struct mem_cgroup of each modelled version, around that version's page_counter.
    const std::size_t page_counters = all.size();
    for (const Shape& shape : composition_of(mem_cgroup_type())->shapes)
        for (std::size_t i = 0; i < page_counters; ++i)
            if (all[i].version == shape.member_version)
                all.push_back(compose_mem_cgroup(shape.version, all[i]));
    {
        // memcg_stock_pcp (fidelity.md §3, docs/LAYOUTS.md): work_struct 32 bytes, flags last.
        // From patch 2 the object stock is {objcg, pgdat, nr_bytes, two slab counts}; patch 4
        // has two of them, task_obj at 16 and irq_obj at 48.
        using namespace stock;
        all.push_back(make_layout(
            memcg_stock_type(), "v5.10", 72, 8,
            {{cached, {0, 8}}, {nr_pages, {8, 4}}, {cached_objcg, {16, 8}}, {nr_bytes, {24, 4}}}));
        const auto obj_stock = [](Layout& l, std::uint32_t at, std::array<stock::Field, 5> f) {
            const std::array<FieldPlacement, 5> place{
                {{at, 8}, {at + 8, 8}, {at + 16, 4}, {at + 20, 4}, {at + 24, 4}}};
            for (std::size_t i = 0; i < f.size(); ++i)
                l.placement[f[i]] = place[i];
        };
        const std::array<stock::Field, 5> task{cached_objcg, cached_pgdat, nr_bytes,
                                               nr_slab_reclaimable_b, nr_slab_unreclaimable_b};
        Layout p2 = make_layout(memcg_stock_type(), "v5.13+p2", 88, 8,
                                {{cached, {0, 8}}, {nr_pages, {8, 4}}});
        obj_stock(p2, 16, task);
        all.push_back(p2);
        Layout v5_14 = make_layout(memcg_stock_type(), "v5.14", 120, 8,
                                   {{cached, {0, 8}}, {nr_pages, {8, 4}}});
        obj_stock(v5_14, 16, task);
        obj_stock(v5_14, 48,
                  {irq_cached_objcg, irq_cached_pgdat, irq_nr_bytes, irq_nr_slab_reclaimable_b,
                   irq_nr_slab_unreclaimable_b});
        all.push_back(v5_14);
    }
    append_kmem_layouts(all);
    append_memcg_stat_layouts(all);
    // The kernel's stats_updates and stats_flush_threshold are 4-byte; they are 8 here because
    // the probes' read-modify-writes are 64-bit. Only where they sit matters to the replay.
    all.push_back(make_layout(memcg_percpu_stats_type(), "v6.0", 24, 8,
                              {{vmstat::state_sock, {0, 8}},
                               {vmstat::stats_updates, {8, 8}},
                               {vmstat::updated_next, {16, 8}}}));
    all.push_back(make_layout(memcg_stats_global_type(), "v6.0", 8, 8,
                              {{stats_global::stats_flush_threshold, {0, 8}}}));
    // reference/memcg.md §3: the lock word shares the counters' line.
    all.push_back(make_layout(res_counter_type(), "v2.6.31", 48, 8,
                              {{rc::usage, {0, 8}},
                               {rc::max_usage, {8, 8}},
                               {rc::limit, {16, 8}},
                               {rc::failcnt, {24, 8}},
                               {rc::lock, {32, 4}},
                               {rc::parent, {40, 8}}}));
    // struct cgroup_subsys_state of 2.6.31: cgroup 0, refcnt 8 (atomic_t), flags, id.
    all.push_back(make_layout(css_v2_6_31_type(), "v2.6.31", 32, 8, {{css31::refcnt, {8, 4}}}));
    for (Layout& l : all)
        l.origin = "built-in";
    return all;
}

} // namespace

std::span<const Layout> builtin_layouts() {
    static const std::vector<Layout> layouts = make_builtin_layouts();
    return layouts;
}

const Layout* find_builtin_layout(std::string_view struct_name, std::string_view version) {
    for (const Layout& l : builtin_layouts())
        if (l.type->name == struct_name && l.version == version)
            return &l;
    return nullptr;
}

} // namespace hitmap::engine
