#include "collector/report/prediction.hpp"

#include "collector/c2c/replay.hpp"
#include "collector/report/c2c_report.hpp"
#include "collector/report/unknown.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace hitmap::report {

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

std::string rate(const std::optional<double>& v) {
    return text_or_unknown(v, "{:.2f}");
}

// Below 0.01 transfers per 1,000 operations a relative error is noise, not information.
constexpr double kNoiseFloor = 0.01;

std::string delta(const std::optional<double>& predicted, const std::optional<double>& measured) {
    if (!predicted || !measured)
        return std::string(unknown_text);
    if (*measured < kNoiseFloor)
        return *predicted < kNoiseFloor ? "0" : "n/a";
    return fmt::format("{:+.1f}%", 100.0 * (*predicted - *measured) / *measured);
}

bool positive(const std::optional<double>& v) {
    return v && *v > 0;
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

std::string format_prediction(const Prediction& p, bool with_measured,
                              std::string_view recorded_label) {
    // Columns as wide as the longest object and field named ("memory.children_low_usage").
    std::size_t object_width = 22, field_width = 20;
    for (const auto& r : p.rows) {
        object_width = std::max(object_width, r.object.size());
        field_width = std::max(field_width, r.field.size());
    }
    std::string out =
        fmt::format("{:<{}} {:<{}} {:>14} {:>14}", "object", object_width, "field", field_width,
                    fmt::format("{}/1k", recorded_label), "predicted/1k");
    if (with_measured)
        out += fmt::format(" {:>14} {:>14}", "measured/1k", "pred vs meas");
    out += "   (transfers per 1,000 operations)\n";
    for (const auto& r : p.rows) {
        const bool any = positive(r.recorded.transfers) || positive(r.predicted.transfers) ||
                         (r.measured && positive(r.measured->transfers));
        if (!any)
            continue;
        out += fmt::format("{:<{}} {:<{}} {:>14} {:>14}", r.object, object_width, r.field,
                           field_width, rate(r.recorded.transfers), rate(r.predicted.transfers));
        if (with_measured)
            out += r.measured ? fmt::format(" {:>14} {:>14}", rate(r.measured->transfers),
                                            delta(r.predicted.transfers, r.measured->transfers))
                              : fmt::format(" {:>14} {:>14}", unknown_text, unknown_text);
        out += "\n";
    }
    if (!p.usage_line_recorded.transfers && !p.usage_line_predicted.transfers)
        return out;
    out +=
        fmt::format("\nlines holding the charged usage: {} {}/1k, predicted {}/1k", recorded_label,
                    rate(p.usage_line_recorded.transfers), rate(p.usage_line_predicted.transfers));
    if (with_measured && p.usage_line_measured)
        out += fmt::format(
            ", measured {}/1k ({} predicted vs measured)", rate(p.usage_line_measured->transfers),
            delta(p.usage_line_predicted.transfers, p.usage_line_measured->transfers));
    return out + "\n";
}

nlohmann::json prediction_json(const Prediction& p) {
    auto rate_json = [](const FieldRate& r) {
        return nlohmann::json{{"transfers_per_1k_ops", json_or_null(r.transfers)},
                              {"hitm_per_1k_ops", json_or_null(r.hitm)}};
    };
    nlohmann::json out{{"fields", nlohmann::json::array()}};
    for (const auto& r : p.rows) {
        nlohmann::json row{{"object", r.object},
                           {"field", r.field},
                           {"recorded", rate_json(r.recorded)},
                           {"predicted", rate_json(r.predicted)}};
        row["measured"] = r.measured ? rate_json(*r.measured) : nlohmann::json();
        out["fields"].push_back(row);
    }
    out["usage_lines"] = {{"recorded", rate_json(p.usage_line_recorded)},
                          {"predicted", rate_json(p.usage_line_predicted)}};
    if (p.usage_line_measured)
        out["usage_lines"]["measured"] = rate_json(*p.usage_line_measured);
    return out;
}

} // namespace hitmap::report
