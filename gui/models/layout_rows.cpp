#include "gui/models/layout_rows.hpp"

#include <QObject>
#include <algorithm>

namespace hitmap::gui {

StripLayout line_strip(const analysis::LayoutMap& map, const analysis::LayoutLine& line) {
    StripLayout strip;
    strip.bytes = map.line_size;
    strip.line_size = map.line_size;
    strip.width = 1.0;
    strip.title = QObject::tr("line %1 at +%2").arg(line.index).arg(line.begin);
    if (line.end - line.begin < map.line_size)
        strip.title += QObject::tr(", struct ends at +%1").arg(line.end);
    strip.counted = map.heat.has_value();
    strip.scope = QObject::tr("summed over the heat run's objects");
    if (map.heat) {
        if (map.heat->traced_ops && *map.heat->traced_ops > 0)
            strip.basis = analysis::RateBasis{analysis::RateBasis::Kind::per_thousand_ops,
                                              *map.heat->traced_ops};
        strip.known = map.heat->known;
    }
    for (const analysis::LineField& f : line.fields) {
        StripBox box;
        box.field = f.field;
        box.name = QString::fromStdString(f.name);
        box.offset = f.offset - line.begin;
        box.size = f.size;
        box.x = static_cast<double>(box.offset) / strip.bytes;
        box.width = static_cast<double>(box.size) / strip.bytes;
        box.counts = f.counts;
        box.moved = f.moved;
        if (f.counts)
            strip.max_value = std::max(strip.max_value, strip_value(strip, *f.counts));
        strip.boxes.push_back(std::move(box));
    }
    // Named among all the struct's fields, each once (a field across a boundary is on two).
    std::vector<std::string_view> paths;
    for (const analysis::LayoutLine& l : map.lines)
        for (const analysis::LineField& f : l.fields)
            if (std::find(paths.begin(), paths.end(), f.name) == paths.end())
                paths.push_back(f.name);
    label_boxes(strip, paths);
    return strip;
}

std::vector<LayoutRow> layout_rows(const analysis::LayoutMap& a, const analysis::LayoutMap* b) {
    const std::size_t count = std::max(a.lines.size(), b ? b->lines.size() : 0);
    const auto has_fields = [](const analysis::LayoutMap* map, std::size_t i) {
        return map && i < map->lines.size() && !map->lines[i].fields.empty();
    };
    const auto strip = [](const analysis::LayoutMap* map,
                          std::size_t i) -> std::optional<StripLayout> {
        if (!map || i >= map->lines.size())
            return std::nullopt;
        return line_strip(*map, map->lines[i]);
    };
    std::vector<LayoutRow> rows;
    for (std::size_t i = 0; i < count; ++i) {
        const auto index = static_cast<std::uint32_t>(i);
        if (has_fields(&a, i) || has_fields(b, i))
            rows.push_back({index, index, strip(&a, i), strip(b, i)});
        else if (!rows.empty() && rows.back().collapsed())
            rows.back().last = index;
        else
            rows.push_back({index, index, std::nullopt, std::nullopt});
    }
    return rows;
}

} // namespace hitmap::gui
