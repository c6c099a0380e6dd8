#include "collector/layoutopt/struct_copies.hpp"

#include "collector/layoutopt/errors.hpp"
#include "engine/layout/layout_registry.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <fmt/format.h>

namespace hitmap::layoutopt {

namespace {

bool same_placement(const engine::Layout& a, const engine::Layout& b) {
    if (a.placement.size() != b.placement.size())
        return false;
    for (std::size_t f = 0; f < a.placement.size(); ++f) {
        const auto& pa = a.placement[f];
        const auto& pb = b.placement[f];
        if (pa.has_value() != pb.has_value() ||
            (pa && (pa->offset != pb->offset || pa->size != pb->size)))
            return false;
    }
    return true;
}

// A user page_counter layout recovered from the mem_cgroup it was composed into: its size is
// the distance from the memory counter to the swap counter, its offsets are relative to the
// memory counter's start, which depends on its alignment; the alignment is the one whose
// composition gives the recorded struct back.
std::optional<engine::Layout> recover_counter(const engine::Layout& mem_cgroup,
                                              std::string_view shape, std::string name) {
    using engine::Counter;
    const engine::FieldId memory_usage = engine::counter_field(Counter::memory, engine::pc::usage);
    const engine::FieldId swap_usage = engine::counter_field(Counter::swap, engine::pc::usage);
    if (!mem_cgroup.has(memory_usage) || !mem_cgroup.has(swap_usage))
        return std::nullopt;
    const std::uint32_t size =
        mem_cgroup.at(swap_usage).offset - mem_cgroup.at(memory_usage).offset;
    for (std::uint32_t align = 8; align <= 4096 && align <= size; align *= 2) {
        if (size % align != 0)
            continue;
        engine::Layout probe;
        probe.type = &engine::page_counter_type();
        probe.version = name;
        probe.size = size;
        probe.align = align;
        probe.placement.resize(engine::pc::kCount);
        probe.placement[engine::pc::usage] = engine::FieldPlacement{0, 8};
        const std::uint32_t base = engine::compose_mem_cgroup(shape, probe).at(memory_usage).offset;
        engine::Layout counter = probe;
        counter.placement.assign(engine::pc::kCount, std::nullopt);
        bool inside = true;
        for (engine::FieldId f = 0; f < engine::pc::kCount; ++f) {
            const engine::FieldId in_memcg =
                engine::counter_field(Counter::memory, engine::pc::Field(f));
            if (!mem_cgroup.has(in_memcg))
                continue;
            const auto& p = mem_cgroup.at(in_memcg);
            inside = inside && p.offset >= base && p.offset + p.size <= base + size;
            if (inside)
                counter.placement[f] = engine::FieldPlacement{p.offset - base, p.size};
        }
        if (inside && same_placement(engine::compose_mem_cgroup(shape, counter), mem_cgroup))
            return counter;
    }
    return std::nullopt;
}

// The page_counter layout a composed mem_cgroup was built around: the shape's own ("v6.0"), a
// known one named in its version ("v6.0 with page_counter v6.1"), or a user layout recovered
// from the offsets.
engine::Layout embedded_counter(const engine::Layout& mem_cgroup) {
    const auto shape = engine::shape_of(mem_cgroup);
    if (!shape)
        throw OptimizeError(fmt::format("mem_cgroup layout '{}' is not a built-in shape: its "
                                        "page_counters cannot be laid out anew inside it",
                                        mem_cgroup.version));
    constexpr std::string_view with = " with page_counter ";
    const std::string_view version = mem_cgroup.version;
    const std::size_t at = version.find(with);
    const std::string name = at == std::string_view::npos
                                 ? std::string(engine::shape_page_counter(*shape))
                                 : std::string(version.substr(at + with.size()));
    if (const engine::Layout* known = engine::find_layout("page_counter", name))
        return *known;
    if (auto recovered = recover_counter(mem_cgroup, *shape, name))
        return std::move(*recovered);
    throw OptimizeError(fmt::format("cannot recover page_counter layout '{}' from mem_cgroup "
                                    "layout '{}'",
                                    name, mem_cgroup.version));
}

} // namespace

StructCopies::StructCopies(const engine::StructType& type,
                           const std::vector<engine::ObjectInfo>& objects)
    : type_(&type) {
    const bool counters = &type == &engine::page_counter_type();
    std::optional<engine::Layout> seen;
    for (const engine::ObjectInfo& o : objects) {
        const bool embeds = counters && o.layout.type == &engine::mem_cgroup_type();
        if (o.layout.type != &type && !embeds)
            continue;
        engine::Layout layout = embeds ? embedded_counter(o.layout) : o.layout;
        if (seen && !same_placement(*seen, layout))
            throw OptimizeError(fmt::format("the run's copies of struct {} have different "
                                            "layouts ({} and {}): optimize a run of one layout",
                                            type.name, seen->version, layout.version));
        if (!seen)
            seen = std::move(layout);
        if (holders_.size() <= o.id)
            holders_.resize(o.id + 1u);
        holders_[o.id] = Holder{static_cast<std::uint32_t>(count_), embeds};
        count_ += embeds ? engine::kCounters : 1;
    }
    if (!seen)
        throw OptimizeError(fmt::format("the run has no struct {}{}", type.name,
                                        counters ? " (nor a mem_cgroup embedding one)" : ""));
    current_ = std::move(*seen);
}

std::optional<CopyField> StructCopies::field_of(engine::ObjectId object,
                                                engine::FieldId field) const {
    if (object >= holders_.size() || !holders_[object])
        return std::nullopt;
    const Holder& h = *holders_[object];
    if (!h.embeds_counters)
        return CopyField{h.first_copy, field};
    const auto member = engine::counter_member(field);
    if (!member)
        return std::nullopt;
    return CopyField{h.first_copy + static_cast<std::uint32_t>(member->counter), member->field};
}

} // namespace hitmap::layoutopt
