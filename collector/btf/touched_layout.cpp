#include "collector/btf/touched_layout.hpp"

#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <tuple>

namespace hitmap::btf {

namespace {

// "(hole before bytes)" between two members; "(padding at the end of inner)" after a nested
// struct's last member, as pahole prints it inside that struct.
std::string gap_name(const StructLayout& layout, const Hole& hole) {
    const std::vector<Member>& members = layout.members;
    const bool ends_level =
        hole.before == members.size() || members[hole.before].depth < hole.depth;
    if (!ends_level)
        return fmt::format("(hole before {})", members[hole.before].path);
    for (std::size_t i = hole.before; i-- > 0;)
        if (members[i].depth + 1 == hole.depth)
            return fmt::format("(padding at the end of {})", members[i].path);
    return "(padding)";
}

} // namespace

engine::FieldPlacement placement_of(const Member& m) {
    return {static_cast<std::uint32_t>(m.offset()),
            static_cast<std::uint32_t>(m.end_byte() - m.offset())};
}

const Member* member_at(const StructLayout& layout, std::uint64_t offset) {
    for (const Member& m : layout.members) {
        if (m.holds_bytes() && offset >= m.offset() && offset < m.end_byte())
            return &m;
    }
    return nullptr;
}

namespace {

struct Named {
    std::string name;
    engine::FieldPlacement placement;
    std::size_t order = 0; // the member's index, or the index of the member a gap precedes
};

// What byte `offset` is in: a member, a gap, or (for an element past the first of an array of
// structs, whose members the layout lists for element 0 only) element 0's, renamed and moved.
Named named_at(const StructLayout& layout, const std::vector<Hole>& holes, std::uint64_t offset) {
    if (const Member* m = member_at(layout, offset))
        return {m->path, placement_of(*m), static_cast<std::size_t>(m - layout.members.data())};
    const Member* array = nullptr; // the innermost array of structs holding the offset
    for (const Member& m : layout.members)
        if (m.elements > 1 &&
            (m.kind == MemberKind::composite || m.kind == MemberKind::anonymous) &&
            offset >= m.offset() + m.size / m.elements && offset < m.offset() + m.size)
            array = &m;
    if (array) {
        const std::uint64_t element = array->size / array->elements;
        const std::uint64_t k = (offset - array->offset()) / element;
        Named first = named_at(layout, holes, offset - k * element);
        const std::string zero = array->path + "[0]";
        if (const std::size_t at = first.name.find(zero); at != std::string::npos)
            first.name.replace(at, zero.size(), fmt::format("{}[{}]", array->path, k));
        first.placement.offset += static_cast<std::uint32_t>(k * element);
        return first;
    }
    const auto hole = std::find_if(holes.begin(), holes.end(), [&](const Hole& h) {
        return offset * 8 + 8 > h.bit_offset && offset * 8 < h.bit_offset + h.bits;
    });
    if (hole != holes.end()) {
        const std::uint64_t first = hole->bit_offset / 8;
        const std::uint64_t end = (hole->bit_offset + hole->bits + 7) / 8;
        return {gap_name(layout, *hole),
                {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(end - first)},
                hole->before};
    }
    const std::uint64_t tail = layout.size - layout.tail_padding();
    if (offset >= tail) // after the last member: what the struct's alignment adds
        return {"(tail padding)",
                {static_cast<std::uint32_t>(tail), static_cast<std::uint32_t>(layout.size - tail)},
                layout.members.size()};
    // Bytes only a zero-size marker or an empty struct stands at: no member of its own.
    return {"(no member)", {static_cast<std::uint32_t>(offset), 1}, layout.members.size()};
}

} // namespace

TouchedLayout touched_layout(const StructLayout& layout, std::span<const std::uint64_t> offsets) {
    // What each touched offset is in, each once, by its first byte and declaration order, so
    // field ids follow the struct's order (of union members, the first declared first).
    std::map<std::tuple<std::uint64_t, std::size_t, std::string>, engine::FieldPlacement> touched;
    const std::vector<Hole> holes = find_holes(layout);
    for (const std::uint64_t o : offsets) {
        if (o >= layout.size)
            continue;
        Named n = named_at(layout, holes, o);
        touched.emplace(std::tuple(std::uint64_t{n.placement.offset}, n.order, std::move(n.name)),
                        n.placement);
    }
    constexpr std::size_t kMaxFields = std::numeric_limits<engine::FieldId>::max();
    if (touched.size() > kMaxFields)
        throw engine::LayoutError(fmt::format("the capture touches {} members of struct {}, more "
                                              "than the {} fields an object can name",
                                              touched.size(), layout.name, kMaxFields));
    auto type = std::make_shared<engine::StructType>();
    type->name = layout.name;
    TouchedLayout out{
        nullptr,
        engine::Layout{type.get(), layout.version, layout.size, std::max(layout.align, 1u), {}}};
    out.layout.origin = layout.origin;
    for (const auto& [where, placement] : touched) {
        type->fields.push_back(std::get<std::string>(where));
        out.layout.placement.push_back(placement);
    }
    out.type = std::move(type);
    return out;
}

} // namespace hitmap::btf
