#include "gui/models/strip_layout.hpp"

#include "collector/analysis/field_names.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/report/cacheline_report.hpp"
#include "gui/models/c2c_rows.hpp"
#include "gui/models/number_text.hpp"

#include <QObject>
#include <algorithm>

namespace hitmap::gui {

std::optional<StripLayout> compute_strip(const store::C2cData& data, const c2c::LineKey& line,
                                         double width, std::uint32_t bytes) {
    const engine::ObjectInfo* o = store::find_object(data, line.object);
    if (!o || !o->layout.type)
        return std::nullopt;
    StripLayout strip;
    strip.line_size = data.result.line_size ? data.result.line_size : 64;
    strip.bytes = std::max(bytes, strip.line_size);
    strip.width = width;
    strip.title = line_title(data, line);
    strip.basis = analysis::rate_basis(data);
    strip.known = data.trace.known;
    strip.scope = QObject::tr("this object's line");

    // Positions are measured from the start of the object's first line, where the object
    // begins at `phase`; line i covers [i * line_size, (i + 1) * line_size).
    const std::uint32_t first_line = o->phase / strip.line_size;
    const std::uint64_t line_start =
        static_cast<std::uint64_t>(first_line + line.index) * strip.line_size;
    const std::uint64_t begin = line_start - line_start % strip.bytes;
    const std::uint64_t end = begin + strip.bytes;
    const std::uint32_t first_index =
        static_cast<std::uint32_t>(begin / strip.line_size) - first_line;
    const std::uint32_t last_index = static_cast<std::uint32_t>(end / strip.line_size) - first_line;

    for (engine::FieldId f = 0; f < o->layout.placement.size(); ++f) {
        if (!o->layout.has(f))
            continue;
        const std::uint64_t start = o->phase + o->layout.at(f).offset;
        const std::uint64_t stop = start + o->layout.at(f).size;
        if (stop <= begin || start >= end)
            continue;
        StripBox box;
        box.field = f;
        box.name = QString::fromStdString(std::string(o->layout.field_name(f)));
        box.offset = static_cast<std::uint32_t>(std::max(start, begin) - begin);
        box.size = static_cast<std::uint32_t>(std::min(stop, end) - begin) - box.offset;
        box.x = width * box.offset / strip.bytes;
        box.width = width * box.size / strip.bytes;
        box.counts.emplace();
        for (const auto& fs : data.result.fields)
            if (fs.line.object == line.object && fs.field == f && fs.line.index >= first_index &&
                fs.line.index < last_index)
                *box.counts += fs.counts;
        strip.max_value = std::max(strip.max_value, strip_value(strip, *box.counts));
        strip.boxes.push_back(std::move(box));
    }
    std::sort(strip.boxes.begin(), strip.boxes.end(),
              [](const StripBox& a, const StripBox& b) { return a.offset < b.offset; });
    std::vector<std::string_view> paths;
    for (engine::FieldId f = 0; f < o->layout.placement.size(); ++f)
        if (o->layout.has(f))
            paths.push_back(o->layout.field_name(f));
    label_boxes(strip, paths);
    return strip;
}

double strip_value(const StripLayout& strip, const c2c::ClassCounts& counts) {
    const std::uint64_t hitm = store::shown_counts(counts, strip.known).hitm;
    return analysis::rate(hitm, strip.basis).value_or(static_cast<double>(hitm));
}

QString strip_metric(const StripLayout& strip) {
    if (!strip.basis)
        return QObject::tr("HITM, raw counts (no traced operations)");
    return analysis::is_share(strip.basis) ? QObject::tr("HITM, % of the captured HITM")
                                           : QObject::tr("HITM per 1,000 traced operations");
}

QString strip_value_text(const StripLayout& strip, const c2c::ClassCounts& counts) {
    const double value = strip_value(strip, counts);
    if (!strip.basis)
        return number_text(value, 0);
    return analysis::is_share(strip.basis) ? number_text(value, 1) + QStringLiteral("%")
                                           : number_text(value, 1) + QStringLiteral("/1k");
}

void label_boxes(StripLayout& strip, const std::vector<std::string_view>& paths) {
    const std::vector<std::string> labels = analysis::short_field_names(paths);
    for (StripBox& box : strip.boxes) {
        box.label = box.name;
        for (std::size_t i = 0; i < paths.size(); ++i)
            if (paths[i] == box.name.toStdString())
                box.label = QString::fromStdString(labels[i]);
    }
}

std::vector<c2c::LineKey> touched_lines(const store::C2cData& data, engine::ObjectId object) {
    std::vector<c2c::LineKey> keys = object_lines(data, object);
    std::erase_if(keys, [&](const c2c::LineKey& key) {
        return std::none_of(data.result.lines.begin(), data.result.lines.end(),
                            [&](const auto& l) { return l.line == key; });
    });
    return keys;
}

std::vector<c2c::LineKey> object_lines(const store::C2cData& data, engine::ObjectId object) {
    std::vector<c2c::LineKey> keys;
    const engine::ObjectInfo* o = store::find_object(data, object);
    if (!o)
        return keys;
    const std::uint32_t line_size = data.result.line_size ? data.result.line_size : 64;
    const std::uint32_t count = (o->phase % line_size + o->layout.size + line_size - 1) / line_size;
    for (std::uint32_t i = 0; i < count; ++i) {
        c2c::LineKey key{object, i, 0};
        // Take the replay's address when the line was touched, for a complete key.
        for (const auto& l : data.result.lines)
            if (l.line.object == object && l.line.index == i)
                key = l.line;
        keys.push_back(key);
    }
    return keys;
}

} // namespace hitmap::gui
