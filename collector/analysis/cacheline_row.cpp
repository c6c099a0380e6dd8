#include "collector/analysis/cacheline_row.hpp"

#include "collector/support/control_text.hpp"
#include "collector/support/unknown.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::analysis {

namespace {

// "top/mid/leaf [3]". Text only: object names come from layout files and stored runs.
std::string line_label(const std::string& object, std::uint32_t index) {
    return fmt::format("{} [{}]", support::escape_control(object), index);
}

} // namespace

std::string object_name(const store::C2cData& data, engine::ObjectId id) {
    const engine::ObjectInfo* o = store::find_object(data, id);
    return o ? o->name : fmt::format("object {}", id);
}

std::string line_name(const store::C2cData& data, const c2c::LineKey& line) {
    return line_label(object_name(data, line.object), line.index);
}

std::optional<double> per_thousand(std::optional<std::uint64_t> count,
                                   std::optional<std::uint64_t> ops) {
    if (!count || !ops || *ops == 0)
        return std::nullopt;
    return 1000.0 * static_cast<double>(*count) / static_cast<double>(*ops);
}

std::string per_thousand_text(std::optional<std::uint64_t> count,
                              std::optional<std::uint64_t> ops) {
    return support::text_or_unknown(per_thousand(count, ops), "{:.2f}");
}

std::string fields_on_line(const store::C2cData& data, const c2c::LineKey& line) {
    const engine::ObjectInfo* o = store::find_object(data, line.object);
    if (!o)
        return "";
    const std::uint32_t line_size = data.result.line_size ? data.result.line_size : 64;
    std::vector<std::pair<std::uint32_t, std::string>> fields;
    for (engine::FieldId f = 0; f < o->layout.placement.size(); ++f) {
        if (!o->layout.has(f))
            continue;
        const std::uint32_t start = o->phase + o->layout.at(f).offset;
        const std::uint32_t end = start + o->layout.at(f).size - 1;
        const std::uint32_t first_line = o->phase / line_size;
        if (start / line_size - first_line <= line.index &&
            end / line_size - first_line >= line.index)
            fields.emplace_back(o->layout.at(f).offset, o->layout.type->fields[f]);
    }
    std::sort(fields.begin(), fields.end());
    std::string out;
    for (const auto& [offset, name] : fields)
        out += (out.empty() ? "" : ",") + name;
    return out;
}

std::vector<const c2c::LineStats*> ranked_lines(const c2c::ReplayResult& result, bool only_shared) {
    std::vector<const c2c::LineStats*> lines;
    for (const auto& l : result.lines)
        if (!only_shared || l.counts.transfers() > 0)
            lines.push_back(&l);
    std::stable_sort(lines.begin(), lines.end(), [](const auto* a, const auto* b) {
        if (a->counts.hitm() != b->counts.hitm())
            return a->counts.hitm() > b->counts.hitm();
        return a->counts.transfers() > b->counts.transfers();
    });
    return lines;
}

std::vector<CachelineRow> cacheline_rows(const store::C2cData& data,
                                         const CachelineRowOptions& options) {
    std::vector<CachelineRow> rows;
    const std::optional<analysis::RateBasis> basis = analysis::rate_basis(data);
    for (const c2c::LineStats* l : analysis::ranked_lines(data.result, options.only_shared)) {
        if (rows.size() == options.limit)
            break;
        CachelineRow row{rows.size(),
                         l->line,
                         object_name(data, l->line.object),
                         analysis::fields_on_line(data, l->line),
                         data.shown(l->counts),
                         basis,
                         std::nullopt,
                         std::nullopt,
                         std::nullopt,
                         {}};
        row.hitm_share = analysis::hitm_share(row.counts.hitm, data);
        if (options.drilldown)
            if (const auto d = options.drilldown->find(l->line.address);
                d != options.drilldown->end()) {
                row.lcl_hitm = d->second.lcl_hitm;
                row.rmt_hitm = d->second.rmt_hitm;
                row.code = d->second.code;
            }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string line_text(const CachelineRow& row) {
    return line_label(row.object, row.key.index);
}

} // namespace hitmap::analysis
