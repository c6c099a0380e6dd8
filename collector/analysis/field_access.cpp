#include "collector/analysis/field_access.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/support/enum_names.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <set>
#include <tuple>

namespace hitmap::analysis {

namespace {

FieldUse use_of(std::uint64_t reads, std::uint64_t writes) {
    const double all = static_cast<double>(reads + writes);
    if (writes == 0)
        return FieldUse::read_only;
    if (reads == 0)
        return FieldUse::write_only;
    if (static_cast<double>(writes) < kMostlyShare * all)
        return FieldUse::read_mostly;
    if (static_cast<double>(reads) < kMostlyShare * all)
        return FieldUse::write_mostly;
    return FieldUse::read_write;
}

} // namespace

std::string_view to_string(FieldUse use) {
    static constexpr std::array<support::EnumName<FieldUse>, 5> names{{
        {FieldUse::read_only, "read-only"},
        {FieldUse::read_mostly, "read-mostly"},
        {FieldUse::read_write, "read-write"},
        {FieldUse::write_mostly, "write-mostly"},
        {FieldUse::write_only, "write-only"},
    }};
    return support::name_of(names, use);
}

FieldAccessReport field_access(const store::C2cData& data,
                               const std::map<std::uint64_t, LineDrilldown>& drilldown) {
    FieldAccessReport out;
    out.counted_in = data.trace.clock == "sampled" ? "samples" : "accesses";

    // Per (object, field): its counts and lines, in the order of the fields' first offsets.
    struct Sum {
        std::uint32_t line = 0, offset = 0;
        std::uint64_t reads = 0, writes = 0, hitm = 0;
        std::set<std::uint32_t> lines;
    };
    std::map<std::pair<engine::ObjectId, std::string>, Sum> sums;
    for (const c2c::FieldStats& f : data.result.fields) {
        auto [it, fresh] = sums.try_emplace({f.line.object, f.field_name});
        Sum& s = it->second;
        if (fresh) {
            s.line = f.line.index;
            s.offset = f.offset;
        }
        s.reads += f.counts.loads;
        s.writes += f.counts.stores;
        s.hitm += f.counts.hitm();
        s.lines.insert(f.line.index);
    }
    for (const auto& [key, s] : sums)
        if (s.reads + s.writes > 0)
            out.fields.push_back({object_name(data, key.first), key.second, s.line, s.offset,
                                  s.reads, s.writes, s.hitm, use_of(s.reads, s.writes)});
    std::stable_sort(out.fields.begin(), out.fields.end(), [&](const auto& a, const auto& b) {
        return std::tie(a.object, a.line, a.offset) < std::tie(b.object, b.line, b.offset);
    });

    // The code that writes each field: a capture's rows with stores.
    std::map<std::pair<engine::ObjectId, std::string>, std::set<std::string>> writers_of;
    for (const c2c::LineStats& l : data.result.lines) {
        const auto d = drilldown.find(l.line.address);
        if (d == drilldown.end())
            continue;
        for (const CodeRow& r : d->second.code)
            if (r.symbol && r.store_l1_hit.value_or(0) + r.store_l1_miss.value_or(0) > 0)
                writers_of[{l.line.object, r.field}].insert(*r.symbol);
    }

    std::map<engine::ObjectId, std::vector<std::pair<std::string, const Sum*>>> written;
    for (const auto& [key, s] : sums)
        if (s.writes > 0)
            written[key.first].emplace_back(key.second, &s);
    for (auto& [object, fields] : written)
        std::stable_sort(fields.begin(), fields.end(), [](const auto& a, const auto& b) {
            return std::tie(a.second->line, a.second->offset) <
                   std::tie(b.second->line, b.second->offset);
        });
    for (const auto& [object, fields] : written)
        for (std::size_t i = 0; i < fields.size(); ++i)
            for (std::size_t j = i + 1; j < fields.size(); ++j) {
                const auto& [a, sa] = fields[i];
                const auto& [b, sb] = fields[j];
                WrittenTogether w{object_name(data, object), a, b, false, {}};
                for (const std::uint32_t line : sa->lines)
                    w.same_line = w.same_line || sb->lines.contains(line);
                const auto wa = writers_of.find({object, a}), wb = writers_of.find({object, b});
                if (wa != writers_of.end() && wb != writers_of.end())
                    std::set_intersection(wa->second.begin(), wa->second.end(), wb->second.begin(),
                                          wb->second.end(), std::back_inserter(w.code));
                if (w.same_line || !w.code.empty())
                    out.written_together.push_back(std::move(w));
            }

    // Per line of an object: its read-only fields beside its written ones.
    std::map<std::pair<engine::ObjectId, std::uint32_t>,
             std::pair<std::vector<std::string>, std::vector<std::string>>>
        by_line; // read-only, written
    for (const auto& [key, s] : sums)
        for (const std::uint32_t line : s.lines) {
            auto& [readers, writers] = by_line[{key.first, line}];
            if (s.writes > 0)
                writers.push_back(key.second);
            else if (s.reads > 0)
                readers.push_back(key.second);
        }
    for (const auto& [where, sides] : by_line)
        if (!sides.second.empty())
            for (const std::string& field : sides.first)
                out.read_beside_write.push_back(
                    {object_name(data, where.first), field, where.second, sides.second});
    return out;
}

} // namespace hitmap::analysis
