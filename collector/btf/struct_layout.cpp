#include "collector/btf/struct_layout.hpp"

#include <algorithm>

namespace hitmap::btf {

namespace {

bool has_members(const Member& m) {
    return m.kind == MemberKind::composite || m.kind == MemberKind::anonymous;
}

// The members of one struct level, from `i` while they are at `depth`; returns the index after
// them. `end` is where the level's container ends (a nested struct's element), nullopt for the
// outermost struct, whose tail is padding rather than a hole.
// A gap from a bit inside a byte is two holes, as pahole counts them: the bits to the byte's
// end, and the bytes after.
void add_hole(std::vector<Hole>& holes, std::size_t before, unsigned depth, std::uint64_t from,
              std::uint64_t to) {
    const std::uint64_t byte_end = std::min(to, (from + 7) / 8 * 8);
    if (byte_end > from && byte_end < to) {
        holes.push_back({before, depth, from, byte_end - from});
        from = byte_end;
    }
    holes.push_back({before, depth, from, to - from});
}

std::size_t level_holes(const std::vector<Member>& members, std::size_t i, unsigned depth,
                        std::uint64_t begin, std::optional<std::uint64_t> end, bool is_union,
                        std::vector<Hole>& holes) {
    std::uint64_t covered = begin; // bits used so far at this level
    while (i < members.size() && members[i].depth == depth) {
        const Member& m = members[i];
        if (!is_union && m.bit_offset > covered)
            add_hole(holes, i, depth, covered, m.bit_offset);
        covered = std::max(covered, m.end_bit());
        ++i;
        if (has_members(m)) {
            const std::uint64_t element_bits = 8ull * (m.size / std::max(1u, m.elements));
            i = level_holes(members, i, depth + 1, m.bit_offset, m.bit_offset + element_bits,
                            m.is_union, holes);
        }
    }
    if (end && !is_union && covered < *end)
        add_hole(holes, i, depth, covered, *end);
    return i;
}

} // namespace

const Member* StructLayout::find(std::string_view path) const {
    for (const Member& m : members)
        if (m.kind != MemberKind::anonymous && m.path == path)
            return &m;
    return nullptr;
}

std::uint64_t StructLayout::tail_padding() const {
    std::uint64_t end_bits = 0;
    for (const Member& m : members)
        if (m.depth == 0)
            end_bits = std::max(end_bits, m.end_bit());
    const std::uint64_t used = (end_bits + 7) / 8;
    return used < size ? size - used : 0;
}

std::vector<Hole> find_holes(const StructLayout& layout) {
    std::vector<Hole> holes;
    level_holes(layout.members, 0, 0, 0, std::nullopt, layout.is_union, holes);
    return holes;
}

} // namespace hitmap::btf
