#include "collector/analysis/layout_map.hpp"

#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::analysis {

namespace {

// The bytes of [begin, end) that none of `fields` (sorted by offset) covers.
std::vector<ByteRange> gaps_of(const std::vector<LineField>& fields, std::uint32_t begin,
                               std::uint32_t end) {
    std::vector<ByteRange> gaps;
    std::uint32_t at = begin;
    for (const LineField& f : fields) {
        if (f.offset > at)
            gaps.push_back({at, f.offset - at});
        at = std::max(at, f.offset + f.size);
    }
    if (end > at)
        gaps.push_back({at, end - at});
    return gaps;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

void mark_moved(LayoutMap& map, const std::vector<std::string>& moved) {
    for (LayoutLine& line : map.lines)
        for (LineField& f : line.fields)
            f.moved = contains(moved, f.name);
}

} // namespace

std::size_t LayoutMap::lines_with_fields() const {
    return static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [](const LayoutLine& l) { return !l.fields.empty(); }));
}

LayoutMap map_layout(const engine::Layout& layout, const StructHeat* heat) {
    if (heat && heat->type != layout.type)
        throw engine::LayoutError(
            fmt::format("run {} has no counts of struct {}", heat->run.id, layout.type->name));
    LayoutMap map;
    map.struct_name = layout.type->name;
    map.version = layout.version;
    map.origin = layout.origin;
    map.size = layout.size;
    if (heat) {
        MapHeat h{heat->run.id, heat->traced_ops, heat->known, false, {}};
        for (const engine::Layout& r : heat->recorded) {
            h.same_layout = h.same_layout || records_layout(r, layout);
            h.recorded.push_back(
                r.type == layout.type ? r.version : fmt::format("{} {}", r.type->name, r.version));
        }
        map.heat = std::move(h);
    }
    const std::uint32_t count = (layout.size + map.line_size - 1) / map.line_size;
    for (std::uint32_t i = 0; i < count; ++i) {
        LayoutLine line;
        line.index = i;
        line.begin = i * map.line_size;
        line.end = std::min(layout.size, (i + 1) * map.line_size);
        for (engine::FieldId f = 0; f < layout.placement.size(); ++f) {
            if (!layout.has(f))
                continue;
            const engine::FieldPlacement& p = layout.at(f);
            const std::uint32_t begin = std::max(p.offset, line.begin);
            const std::uint32_t end = std::min(p.offset + p.size, line.end);
            if (begin >= end)
                continue;
            LineField field;
            field.field = f;
            field.name = layout.field_name(f);
            field.offset = begin;
            field.size = end - begin;
            if (heat)
                field.counts = heat->fields.at(f);
            line.fields.push_back(std::move(field));
        }
        std::sort(line.fields.begin(), line.fields.end(),
                  [](const LineField& x, const LineField& y) { return x.offset < y.offset; });
        line.gaps = gaps_of(line.fields, line.begin, line.end);
        map.lines.push_back(std::move(line));
    }
    return map;
}

LayoutPair compare_layouts(const engine::Layout& a, const StructHeat* heat_a,
                           const engine::Layout& b, const StructHeat* heat_b) {
    btf::LayoutDiff diff = btf::diff_layouts(a, b);
    LayoutPair pair{map_layout(a, heat_a),
                    map_layout(b, heat_b),
                    std::move(diff.fields),
                    std::move(diff.hot),
                    {}};
    // What matters is who shares the hot field's line: v6.1's page_counter moves 8 fields to
    // other lines, of which 7 leave usage's line (parent only goes from one cold line to
    // another), and struct mem_cgroup's offsets shift under 59 fields that mostly stay on their
    // line's side of memory.usage. Without a hot field, every field on another line.
    for (const btf::FieldChange& c : pair.fields) {
        const bool moved =
            pair.hot.empty()
                ? btf::LayoutDiff::moved(c)
                : std::any_of(pair.hot.begin(), pair.hot.end(), [&](const btf::HotLine& h) {
                      return contains(h.left, c.field) || contains(h.joined, c.field);
                  });
        if (moved)
            pair.moved.push_back(c.field);
    }
    mark_moved(pair.a, pair.moved);
    mark_moved(pair.b, pair.moved);
    return pair;
}

} // namespace hitmap::analysis
