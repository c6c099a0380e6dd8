#pragma once
// struct mem_cgroup as the charge paths see it: the css fields they read, the memcg id, the four
// embedded page_counters and the socket and statistics fields, at their offsets in each
// modelled kernel (docs/LAYOUTS.md derives them). Fields are named by path ("memory.usage",
// "swap.high", "css.parent"), so a report says which member of which counter a line holds.
//
// A mem_cgroup layout is composed, as the compiler lays the struct out: a version's member
// list (its *shape*) with the page_counter layout placed at each embedded counter. So
// `--layout page_counter=v6.1` under the v6.0 shape is exactly "patch 2 alone" (the patch only
// touched include/linux/page_counter.h), and the rest of the struct moves as it would.
#include "engine/layout/builtin_layouts.hpp"

#include <optional>
#include <span>
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

// The kernel versions whose member list is modelled: "v5.12", "v6.0", "v6.1", "v6.15".
std::span<const std::string_view> mem_cgroup_shapes();

// struct mem_cgroup of `shape` with `counter` as its page_counter layout. Throws LayoutError for
// an unknown shape or a page_counter layout of the wrong struct. The version reads "v6.0" when
// the counter is the shape's own, else "v6.0 with page_counter v6.1".
Layout compose_mem_cgroup(std::string_view shape, const Layout& counter);

// The version of the page_counter layout each shape was released with ("v6.1" -> "v6.1").
std::string_view shape_page_counter(std::string_view shape);

// The shape a composed mem_cgroup layout came from (its version names it), or nullopt for a
// user layout. A user layout should not take a built-in version name as its own.
std::optional<std::string> shape_of(const Layout& mem_cgroup);

// The field every charge read-modify-writes: page_counter's usage, mem_cgroup's memory.usage,
// res_counter's usage. Reports total the transfers of the lines that hold one.
bool is_charged_usage(const StructType& type, std::string_view field);

// The layout `recorded` is replayed or run under, given --layout overrides (struct name ->
// layout): its own struct's override; for a composed mem_cgroup, a page_counter override
// recomposed into its shape; otherwise nullopt (keep the recorded layout). Throws LayoutError
// when both a mem_cgroup and a page_counter layout are given, or a page_counter override meets a
// user mem_cgroup layout that has no shape to place it in.
template <typename Overrides>
std::optional<Layout> layout_under(const Layout& recorded, const Overrides& overrides);

// Non-template core of layout_under, on the two lookups it needs.
std::optional<Layout> layout_under(const Layout& recorded, const Layout* own_override,
                                   const Layout* page_counter_override);

template <typename Overrides>
std::optional<Layout> layout_under(const Layout& recorded, const Overrides& overrides) {
    const auto find = [&](std::string_view name) -> const Layout* {
        const auto it = overrides.find(std::string(name));
        return it == overrides.end() ? nullptr : &it->second;
    };
    return layout_under(recorded, find(recorded.type->name),
                        recorded.type == &mem_cgroup_type() ? find(page_counter_type().name)
                                                            : nullptr);
}

} // namespace hitmap::engine
