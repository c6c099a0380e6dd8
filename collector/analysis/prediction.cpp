#include "collector/analysis/prediction.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/c2c/replay.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <algorithm>
#include <map>

namespace hitmap::analysis {

namespace {

using Key = std::pair<std::string, std::string>; // object name, field name

// Transfers and HITMs per 1,000 of the data's operations; transfers unknown where its source
// cannot count them all (store::KnownCounts::transfers).
FieldRate rate_of(const store::C2cData& data, std::uint64_t transfers, std::uint64_t hitm) {
    return FieldRate{
        per_thousand(data.trace.known.transfers_if_known(transfers), data.traced_ops()),
        per_thousand(hitm, data.traced_ops())};
}

std::map<Key, FieldRate> rates_by_field(const store::C2cData& data) {
    std::map<Key, FieldRate> out;
    for (const auto& f : c2c::field_transfers(data.result)) {
        const std::string object =
            f.object < data.objects.size() ? data.objects[f.object].name : std::to_string(f.object);
        out[{object, f.field_name}] = rate_of(data, f.transfers, f.hitm);
    }
    return out;
}

// Transfers on the lines that hold a counter's charged usage, whatever else shares them; unknown
// when no object has one (a plugin's workload), rather than a zero that reads as a finding.
FieldRate usage_lines(const store::C2cData& data) {
    const c2c::ReplayResult& r = data.result;
    const std::vector<engine::ObjectInfo>& objects = data.objects;
    const bool modelled = std::any_of(objects.begin(), objects.end(), [](const auto& o) {
        const engine::StructType& t = *o.layout.type;
        return std::any_of(t.fields.begin(), t.fields.end(),
                           [&](const std::string& f) { return engine::is_charged_usage(t, f); });
    });
    if (!modelled)
        return FieldRate{std::nullopt, std::nullopt};
    std::uint64_t transfers = 0, hitm = 0;
    for (const auto& l : r.lines) {
        bool has_usage = false;
        for (const auto& f : r.fields)
            if (f.line == l.line && l.line.object < objects.size() &&
                engine::is_charged_usage(*objects[l.line.object].layout.type, f.field_name))
                has_usage = true;
        if (has_usage) {
            transfers += l.counts.transfers();
            hitm += l.counts.hitm();
        }
    }
    return rate_of(data, transfers, hitm);
}

bool has_object(const store::C2cData& data, const std::string& name) {
    for (const auto& o : data.objects)
        if (o.name == name)
            return true;
    return false;
}

} // namespace

Prediction compare_prediction(const store::C2cData& recorded, const store::C2cData& predicted,
                              const store::C2cData* measured) {
    const auto rec = rates_by_field(recorded);
    const auto pred = rates_by_field(predicted);
    std::map<Key, FieldRate> meas;
    if (measured)
        meas = rates_by_field(*measured);
    std::map<Key, PredictionRow> rows;
    auto row = [&](const Key& k) -> PredictionRow& {
        auto& r = rows[k];
        r.object = k.first;
        r.field = k.second;
        // A field without transfers in the measured run had none; an object the measured run
        // lacks says nothing.
        if (measured && !r.measured && has_object(*measured, k.first))
            r.measured = rate_of(*measured, 0, 0);
        return r;
    };
    for (const auto& [k, v] : rec)
        row(k).recorded = v;
    for (const auto& [k, v] : pred)
        row(k).predicted = v;
    for (const auto& [k, v] : meas)
        row(k).measured = v;
    Prediction p;
    for (auto& [k, r] : rows)
        p.rows.push_back(std::move(r));
    p.usage_line_recorded = usage_lines(recorded);
    p.usage_line_predicted = usage_lines(predicted);
    if (measured)
        p.usage_line_measured = usage_lines(*measured);
    return p;
}

} // namespace hitmap::analysis
