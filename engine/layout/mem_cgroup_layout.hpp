#pragma once
// struct mem_cgroup as the charge paths see it: the css fields they read, the memcg id, the four
// embedded page_counters and the socket and statistics fields, at their offsets in each
// modelled kernel (docs/LAYOUTS.md derives them). Fields are named by path ("memory.usage",
// "swap.high", "css.parent"), so a report says which member of which counter a line holds.
//
// A mem_cgroup layout is composed (composition.hpp), as the compiler lays the struct out: a
// version's member list (its *shape*) with the page_counter layout placed at each embedded
// counter. So `--layout page_counter=v6.1` under the v6.0 shape is exactly "patch 2 alone" (the
// patch only touched include/linux/page_counter.h), and the rest of the struct moves as it would.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/composition.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace hitmap::engine {

// The page_counters embedded in struct mem_cgroup, in struct order.
enum class Counter : std::uint8_t { memory, swap, kmem, tcpmem };
inline constexpr unsigned kCounters = 4;
std::string_view counter_name(Counter c); // "memory", "swap" (memsw on v1), "kmem", "tcpmem"

// Field ids of struct mem_cgroup. The page_counter fields of counter c are the pc::Field ids
// shifted by counter_field(c, 0), in the page_counter type's order.
namespace mcg {
enum Field : FieldId {
    css_cgroup,     // css.cgroup: read by cgroup_rstat_updated()
    css_refcnt,     // css.refcnt.percpu_count_ptr: css_get()/css_put()
    css_parent,     // css.parent: parent_mem_cgroup() on every hierarchy walk
    id,             // id.id
    counters_begin, // memory.usage ... tcpmem.parent
    socket_pressure = counters_begin + kCounters * pc::kCount,
    vmstats_percpu, // the per-CPU statistics pointer, read by every stat update
    objcg,          // memcg->objcg: get_obj_cgroup_from_current() on every accounted allocation
    kCount
};
} // namespace mcg

constexpr FieldId counter_field(Counter c, pc::Field f) {
    return static_cast<FieldId>(mcg::counters_begin + static_cast<unsigned>(c) * pc::kCount + f);
}

// The inverse of counter_field: which counter and which of its page_counter fields a mem_cgroup
// field is ("swap.high" -> {swap, high}); nullopt outside the counters (css.parent, id, ...).
struct CounterMember {
    Counter counter;
    pc::Field field;
};
constexpr std::optional<CounterMember> counter_member(FieldId f) {
    if (f < mcg::counters_begin || f >= mcg::socket_pressure)
        return std::nullopt;
    const unsigned i = f - mcg::counters_begin;
    return CounterMember{static_cast<Counter>(i / pc::kCount),
                         static_cast<pc::Field>(i % pc::kCount)};
}

const StructType& mem_cgroup_type();

// The composition of struct mem_cgroup around its page_counters, one shape per modelled kernel:
// "v5.12", "v6.0", "v6.1", "v6.15". Registered with the others (composition.hpp).
Composition mem_cgroup_composition();

// struct mem_cgroup of `shape` with `counter` as its page_counter layout (compose() on the
// registered composition).
Layout compose_mem_cgroup(std::string_view shape, const Layout& counter);

} // namespace hitmap::engine
