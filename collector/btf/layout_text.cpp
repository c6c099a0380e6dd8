#include "collector/btf/layout_text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::btf {

namespace {

constexpr std::string_view kGroupBegin = "__cacheline_group_begin__";
constexpr std::string_view kGroupEnd = "__cacheline_group_end__";

std::string_view last_component(std::string_view path) {
    const std::size_t dot = path.rfind('.');
    return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

// "19" for a byte offset, "19:4" for bit 4 of byte 19.
std::string offset_text(std::uint64_t bit_offset) {
    return bit_offset % 8 ? fmt::format("{}:{}", bit_offset / 8, bit_offset % 8)
                          : fmt::format("{}", bit_offset / 8);
}

std::string size_text(std::uint64_t bits) {
    return bits % 8 ? fmt::format("{} bit{}", bits, bits == 1 ? "" : "s")
                    : fmt::format("{}", bits / 8);
}

std::string hole_text(std::uint64_t bits) {
    if (bits % 8 == 0)
        return fmt::format("/* XXX {} byte{} hole */", bits / 8, bits == 8 ? "" : "s");
    return fmt::format("/* XXX {} bit{} hole */", bits, bits == 1 ? "" : "s");
}

std::string member_note(const Member& m) {
    std::vector<std::string> notes;
    if (m.kind == MemberKind::marker)
        notes.push_back(marker_note(m));
    if (m.kind == MemberKind::composite && m.elements > 1)
        notes.push_back("members of element 0");
    if (m.forced_align)
        notes.push_back(fmt::format("aligned {}", *m.forced_align));
    std::string text;
    for (const std::string& n : notes)
        text += (text.empty() ? "  /* " : ", ") + n;
    return text.empty() ? text : text + " */";
}

} // namespace

std::string marker_note(const Member& member) {
    const std::string_view name = last_component(member.path);
    if (member.type == "struct cacheline_padding")
        return "CACHELINE_PADDING"; // include/linux/cache.h, v6.2+
    if (name.starts_with(kGroupBegin))
        return fmt::format("cacheline group {} begins", name.substr(kGroupBegin.size()));
    if (name.starts_with(kGroupEnd))
        return fmt::format("cacheline group {} ends", name.substr(kGroupEnd.size()));
    if (member.type.ends_with("[0]"))
        return "zero-length array"; // BTF writes a flexible array member x[] as x[0]
    if (member.type.starts_with("struct ") || member.type.starts_with("union "))
        return "empty struct";
    return "zero size";
}

std::string format_layout_text(const StructLayout& layout, unsigned max_depth) {
    const std::vector<Hole> holes = find_holes(layout);
    std::size_t width = 0;
    std::size_t shown = 0;
    for (const Member& m : layout.members)
        if (m.depth <= max_depth) {
            width = std::max(width, 2 * m.depth + m.path.size());
            ++shown;
        }
    const std::uint64_t lines = (layout.size + kCacheLineSize - 1) / kCacheLineSize;
    std::string out =
        fmt::format("{} {} {{  /* {} bytes, aligned {} (inferred), {} cache line{} of {} bytes "
                    "counted from offset 0 */\n",
                    layout.is_union ? "union" : "struct", layout.name, layout.size, layout.align,
                    lines, lines == 1 ? "" : "s", kCacheLineSize);
    out += fmt::format("  /* from {} */\n", layout.origin);
    out += fmt::format("  /* {:>7} {:>7}  member */\n", "offset", "size");
    std::uint64_t line = 0;
    std::uint64_t hole_bytes = 0;
    std::uint64_t hole_bits = 0;
    std::size_t hole_count = 0;
    auto next_hole = holes.begin();
    const auto print_holes_before = [&](std::size_t index) {
        for (; next_hole != holes.end() && next_hole->before == index; ++next_hole) {
            if (next_hole->depth > max_depth)
                continue;
            out += fmt::format("{:>12} {:>7}  {:{}}{}\n", offset_text(next_hole->bit_offset),
                               size_text(next_hole->bits), "", 2 * next_hole->depth,
                               hole_text(next_hole->bits));
            ++hole_count;
            if (next_hole->bits % 8)
                hole_bits += next_hole->bits;
            else
                hole_bytes += next_hole->bits / 8;
        }
    };
    for (std::size_t i = 0; i < layout.members.size(); ++i) {
        print_holes_before(i);
        const Member& m = layout.members[i];
        if (m.depth > max_depth)
            continue;
        if (const std::uint64_t l = m.offset() / kCacheLineSize; l > line) {
            line = l;
            const std::uint64_t past = m.offset() - l * kCacheLineSize;
            out +=
                fmt::format("  /* --- cacheline {} boundary ({} bytes){} --- */\n", l,
                            l * kCacheLineSize, past ? fmt::format(" was {} bytes ago", past) : "");
        }
        const std::string name = m.kind == MemberKind::anonymous ? "(anonymous)" : m.path;
        out += fmt::format("{:>12} {:>7}  {:{}}{:<{}}  {}{}\n", offset_text(m.bit_offset),
                           size_text(m.bit_size), "", 2 * m.depth, name, width - 2 * m.depth,
                           m.type, member_note(m));
    }
    print_holes_before(layout.members.size());
    std::string holes_text = fmt::format("holes: {}", hole_count);
    if (hole_bytes)
        holes_text += fmt::format(", {} bytes", hole_bytes);
    if (hole_bits)
        holes_text += fmt::format(", {} bits", hole_bits);
    out += fmt::format("  /* size: {}, cachelines: {}, members: {}, {}, padding: {} */\n}};\n",
                       layout.size, lines, shown, holes_text, layout.tail_padding());
    return out;
}

} // namespace hitmap::btf
