#include "collector/report/prediction_report.hpp"

#include "collector/report/unknown.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

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

} // namespace

std::string format_prediction(const analysis::Prediction& p, bool with_measured,
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

nlohmann::json prediction_json(const analysis::Prediction& p) {
    auto rate_json = [](const analysis::FieldRate& r) {
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
