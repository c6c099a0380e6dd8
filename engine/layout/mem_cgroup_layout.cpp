#include "engine/layout/mem_cgroup_layout.hpp"

#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <utility>
#include <vector>

namespace hitmap::engine {

std::string_view counter_name(Counter c) {
    static constexpr std::array<std::string_view, kCounters> names{"memory", "swap", "kmem",
                                                                   "tcpmem"};
    return names[static_cast<unsigned>(c)];
}

const StructType& mem_cgroup_type() {
    static const StructType type = [] {
        StructType t{"mem_cgroup", {"css.cgroup", "css.refcnt", "css.parent", "id"}};
        for (unsigned c = 0; c < kCounters; ++c)
            for (const std::string& f : page_counter_type().fields)
                t.fields.push_back(fmt::format("{}.{}", counter_name(Counter(c)), f));
        t.fields.insert(t.fields.end(), {"socket_pressure", "vmstats_percpu", "objcg"});
        return t;
    }();
    return type;
}

namespace {

// One member of the struct, in declaration order: a run of fields the model does not probe
// (only their size and alignment matter), a block whose probed fields sit at offsets within
// it, an embedded page_counter, or a CACHELINE_PADDING()/MEMCG_PADDING() (the next member
// starts on a new line).
struct Member {
    enum Kind { block, counter, line_padding } kind = block;
    std::string_view what; // the kernel's members this stands for
    std::uint32_t size = 0;
    std::uint32_t align = 8;
    std::vector<std::pair<FieldId, std::uint32_t>> fields = {};
    Counter embedded = Counter::memory;
};

struct Shape {
    std::string_view version;
    std::string_view page_counter; // the page_counter layout it was released with
    std::vector<Member> members;
};

Member counter(Counter c) {
    return {Member::counter, counter_name(c), 0, 0, {}, c};
}
Member padding() {
    return {Member::line_padding, "padding", 0, 64};
}

// Offsets per docs/LAYOUTS.md (x86-64, the default config listed there). css: struct
// cgroup_subsys_state of the version; "opaque" blocks are the members between the probed ones,
// summed. v6.0 sums to Feng Tang's memory at +0xd0 and Shakeel Butt's sizeof 4032 (4416 with
// the v6.1 page_counter); the embedded vmstats' size depends on the stat items configured.
// 6.0-rc1 and 6.1 declare the same members; they differ in the embedded struct memcg_vmstats
// (16 bytes per stat and event item) and in the tail (6.1 adds mm_list under LRU_GEN).
std::vector<Member> members_v6_0_family(std::uint32_t vmstats_bytes, std::uint32_t tail_bytes,
                                        std::string_view tail) {
    using namespace mcg;
    return {{Member::block, "css", 200, 8, {{css_cgroup, 0}, {css_refcnt, 16}, {css_parent, 192}}},
            {Member::block, "id", 8, 4, {{id, 0}}},
            counter(Counter::memory),
            counter(Counter::swap),
            counter(Counter::kmem),
            counter(Counter::tcpmem),
            {Member::block, "high_work .. move_lock_flags", 456},
            padding(),
            // then memory_events[9] and memory_events_local[9]
            {Member::block, "vmstats, memory_events, memory_events_local", vmstats_bytes + 144},
            {Member::block, "socket_pressure", 8, 8, {{socket_pressure, 0}}},
            // tcpmem_active, tcpmem_pressure, kmemcg_id, (v5.12: kmem_state), objcg, objcg_list
            {Member::block, "tcpmem_active .. objcg_list", 40, 8, {{mcg::objcg, 16}}},
            padding(),
            {Member::block, "moving_account, move_lock_task", 16},
            {Member::block, "vmstats_percpu", 8, 8, {{mcg::vmstats_percpu, 0}}},
            {Member::block, tail, tail_bytes}};
}

const std::vector<Shape>& shapes() {
    using namespace mcg;
    static const std::vector<Shape> all{
        // v5.12 (seed 000's base): the head through tcpmem as derived in docs/LAYOUTS.md
        // (memory 208, memsw 320, kmem 432, tcpmem 544; page_counter with parent last since
        // v5.11); the rest is the v6.0 member list with v5.12's vmstats[] and vmevents[]
        // arrays, an approximation that moves only fields no kmem path writes.
        {"v5.12", "v6.0", members_v6_0_family(1056, 360, "cgwb_list .. nodeinfo[]")},
        // 143 stat and event items: in the 141..144 that sizeof 4032 allows.
        {"v6.0", "v6.0", members_v6_0_family(2288, 360, "cgwb_list .. nodeinfo[]")},
        // The events shrank to NR_MEMCG_EVENTS in 6.1-rc1: about 65 items in all.
        {"v6.1", "v6.1", members_v6_0_family(1040, 424, "cgwb_list .. mm_list, nodeinfo[]")},
        {"v6.15",
         "v6.15",
         {{Member::block, "css", 208, 8, {{css_cgroup, 0}, {css_refcnt, 16}, {css_parent, 192}}},
          {Member::block, "id", 8, 4, {{id, 0}}},
          counter(Counter::memory),
          counter(Counter::swap),
          {Member::block, "memory_peaks .. swap_events_file", 384},
          {Member::block, "vmstats (a pointer), memory_events, memory_events_local", 152},
          {Member::block, "socket_pressure", 8, 8, {{socket_pressure, 0}}},
          {Member::block, "kmemcg_id .. objcg_list", 40, 8, {{mcg::objcg, 8}}},
          {Member::block, "vmstats_percpu", 8, 8, {{mcg::vmstats_percpu, 0}}},
          {Member::block, "cgwb_list .. mm_list", 352},
          counter(Counter::kmem), // CONFIG_MEMCG_V1: the v1 fields at the end, line-aligned
          counter(Counter::tcpmem),
          {Member::block, "events_percpu .. nodeinfo[]", 144}}},
    };
    return all;
}

const Shape& find_shape(std::string_view version) {
    for (const Shape& s : shapes())
        if (s.version == version)
            return s;
    std::string known;
    for (const Shape& s : shapes())
        known += fmt::format("{}{}", known.empty() ? "" : ", ", s.version);
    throw LayoutError(
        fmt::format("no struct mem_cgroup shape for '{}' (known: {})", version, known));
}

std::uint32_t align_up(std::uint32_t n, std::uint32_t a) {
    return (n + a - 1) / a * a;
}

} // namespace

std::span<const std::string_view> mem_cgroup_shapes() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> v;
        for (const Shape& s : shapes())
            v.push_back(s.version);
        return v;
    }();
    return names;
}

std::string_view shape_page_counter(std::string_view shape) {
    return find_shape(shape).page_counter;
}

Layout compose_mem_cgroup(std::string_view shape_name, const Layout& pc_layout) {
    if (pc_layout.type != &page_counter_type())
        throw LayoutError(fmt::format("layout {} is of struct {}, not page_counter",
                                      pc_layout.version, pc_layout.type->name));
    const Shape& shape = find_shape(shape_name);
    const StructType& type = mem_cgroup_type();
    Layout out{&type,
               pc_layout.version == shape.page_counter
                   ? std::string(shape.version)
                   : fmt::format("{} with page_counter {}", shape.version, pc_layout.version),
               0,
               8,
               {}};
    // Around a built-in counter the whole struct is built-in (`--layout page_counter=v6.1` under
    // the v6.0 shape); an unknown counter's origin leaves the struct's unknown too.
    if (pc_layout.origin == "built-in")
        out.origin = pc_layout.origin;
    else if (!pc_layout.origin.empty())
        out.origin = fmt::format("built-in mem_cgroup {} around page_counter from {}",
                                 shape.version, pc_layout.origin);
    out.placement.resize(type.fields.size());
    std::uint32_t at = 0;
    for (const Member& m : shape.members) {
        const std::uint32_t size = m.kind == Member::counter ? pc_layout.size : m.size;
        const std::uint32_t align = m.kind == Member::counter ? pc_layout.align : m.align;
        at = align_up(at, align);
        out.align = std::max(out.align, align);
        if (m.kind == Member::counter) {
            for (FieldId f = 0; f < pc::kCount; ++f)
                if (pc_layout.has(f))
                    out.placement[counter_field(m.embedded, pc::Field(f))] =
                        FieldPlacement{at + pc_layout.at(f).offset, pc_layout.at(f).size};
        }
        for (const auto& [field, offset] : m.fields)
            out.placement[field] = FieldPlacement{at + offset, natural_field_size(type, field)};
        at += size;
    }
    out.size = align_up(at, out.align);
    return out;
}

bool is_charged_usage(const StructType& type, std::string_view field) {
    if (&type == &mem_cgroup_type())
        return field == "memory.usage";
    return (&type == &page_counter_type() || &type == &res_counter_type()) && field == "usage";
}

std::optional<std::string> shape_of(const Layout& mem_cgroup) {
    if (mem_cgroup.type != &mem_cgroup_type())
        return std::nullopt;
    // compose_mem_cgroup's names: "v6.0", or "v6.0 with page_counter <version>".
    const std::string_view version = mem_cgroup.version;
    const std::size_t space = version.find(' ');
    const std::string_view first = version.substr(0, space);
    if (space != std::string_view::npos &&
        !version.substr(space).starts_with(" with page_counter "))
        return std::nullopt;
    for (const std::string_view s : mem_cgroup_shapes())
        if (s == first)
            return std::string(s);
    return std::nullopt;
}

std::optional<Layout> layout_under(const Layout& recorded, const Layout* own_override,
                                   const Layout* page_counter_override) {
    if (own_override && page_counter_override)
        throw LayoutError("give --layout mem_cgroup=... or --layout page_counter=..., not both: a "
                          "mem_cgroup layout already places its page_counters");
    if (own_override)
        return *own_override;
    if (!page_counter_override)
        return std::nullopt;
    const auto shape = shape_of(recorded);
    if (!shape)
        throw LayoutError(fmt::format("mem_cgroup layout '{}' is not a built-in shape, so a "
                                      "page_counter layout cannot be placed in it",
                                      recorded.version));
    return compose_mem_cgroup(*shape, *page_counter_override);
}

} // namespace hitmap::engine
