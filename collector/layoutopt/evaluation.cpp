#include "collector/layoutopt/evaluation.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/layoutopt/errors.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace hitmap::layoutopt {

Evaluate replay_evaluation(std::span<const c2c::ThreadTrace> threads,
                           const store::C2cData& recorded, c2c::ReplayConfig config) {
    return [threads, &recorded, config](const c2c::LayoutOverrides& layouts) {
        c2c::ReplayConfig with = config;
        with.layouts = layouts;
        return store::C2cData{recorded.objects, recorded.trace,
                              c2c::replay(threads, recorded.objects, with)};
    };
}

std::vector<StructLine> struct_lines(const store::C2cData& data, const StructCopies& copies) {
    struct Seen {
        std::optional<std::uint32_t> copy;
        std::vector<engine::FieldId> fields;
        bool other = false; // a field that is not the struct's, or another copy's
    };
    std::map<c2c::LineKey, Seen> lines;
    for (const c2c::FieldStats& f : data.result.fields) {
        Seen& seen = lines[f.line];
        const auto member = copies.field_of(f.line.object, f.field);
        if (!member) {
            seen.other = true;
            continue;
        }
        if (seen.copy && *seen.copy != member->copy)
            seen.other = true;
        seen.copy = member->copy;
        if (std::find(seen.fields.begin(), seen.fields.end(), member->field) == seen.fields.end())
            seen.fields.push_back(member->field);
    }
    std::vector<StructLine> out;
    for (const c2c::LineStats& l : data.result.lines) {
        const auto it = lines.find(l.line);
        if (it == lines.end() || !it->second.copy)
            continue;
        if (it->second.other)
            throw OptimizeError(fmt::format(
                "line {} of {} holds struct {} fields beside others: the optimizer lays the "
                "struct out on whole lines, which needs its objects to start on a line (phase 0)",
                l.line.index, analysis::object_name(data, l.line.object), copies.type().name));
        std::sort(it->second.fields.begin(), it->second.fields.end());
        out.push_back({*it->second.copy, std::move(it->second.fields), l.counts.transfers()});
    }
    return out;
}

std::uint64_t struct_line_transfers(const store::C2cData& data, const StructCopies& copies) {
    std::vector<c2c::LineKey> holding;
    for (const c2c::FieldStats& f : data.result.fields)
        if (copies.field_of(f.line.object, f.field) &&
            (holding.empty() || holding.back() != f.line))
            holding.push_back(f.line);
    std::uint64_t sum = 0;
    for (const c2c::LineStats& l : data.result.lines)
        if (std::binary_search(holding.begin(), holding.end(), l.line))
            sum += l.counts.transfers();
    return sum;
}

std::vector<std::uint64_t> transfers_by_field(const store::C2cData& data,
                                              const StructCopies& copies) {
    std::vector<std::uint64_t> out(copies.type().fields.size(), 0);
    for (const c2c::FieldTransfers& f : c2c::field_transfers(data.result))
        if (const auto member = copies.field_of(f.object, f.field))
            out[member->field] += f.transfers;
    return out;
}

std::vector<engine::FieldId> accessed_fields(const store::C2cData& data,
                                             const StructCopies& copies) {
    std::vector<bool> seen(copies.type().fields.size(), false);
    for (const c2c::FieldStats& f : data.result.fields)
        if (const auto member = copies.field_of(f.line.object, f.field))
            if (f.counts.accesses() > 0)
                seen[member->field] = true;
    std::vector<engine::FieldId> out;
    for (engine::FieldId f = 0; f < seen.size(); ++f)
        if (seen[f])
            out.push_back(f);
    return out;
}

} // namespace hitmap::layoutopt
