#include "engine/layout/mem_cgroup_layout.hpp"

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
        t.btf_members = {
            // struct percpu_ref {unsigned long percpu_count_ptr; struct percpu_ref_data *data;}
            // (include/linux/percpu-refcount.h, v5.9+): css_get()/css_put() touch the first word.
            {"css.refcnt", "css.refcnt.percpu_count_ptr"},
            // struct mem_cgroup_id {int id; refcount_t ref;} (include/linux/memcontrol.h).
            {"id", "id.id"},
        };
        return t;
    }();
    return type;
}

namespace {

using Member = ShapeMember;

Member counter(Counter c) {
    return {Member::embedded, counter_name(c), 0, 0, {}, static_cast<unsigned>(c)};
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

std::vector<Shape> shapes() {
    using namespace mcg;
    return {
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
}

} // namespace

Composition mem_cgroup_composition() {
    Composition c{&mem_cgroup_type(), &page_counter_type(), {}, mcg::counters_begin, shapes()};
    for (unsigned i = 0; i < kCounters; ++i)
        c.paths.emplace_back(counter_name(Counter(i)));
    return c;
}

Layout compose_mem_cgroup(std::string_view shape, const Layout& counter) {
    return compose(*composition_of(mem_cgroup_type()), shape, counter);
}

} // namespace hitmap::engine
