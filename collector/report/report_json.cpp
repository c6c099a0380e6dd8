#include "collector/report/report_json.hpp"

#include "collector/analysis/cacheline_columns.hpp"
#include "collector/report/cacheline_report.hpp"
#include "collector/report/prediction_report.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/report/unknown.hpp"

namespace hitmap::report {

namespace {

nlohmann::json lines_json(const std::vector<analysis::CachelineRow>& lines) {
    using analysis::CachelineColumnId;
    const auto cell = [](CachelineColumnId id, const analysis::CachelineRow& row) {
        return analysis::cell_json(analysis::cacheline_column(id).value(row));
    };
    nlohmann::json out = nlohmann::json::array();
    for (const auto& l : lines)
        out.push_back({{"line", analysis::line_text(l)},
                       {"fields", l.fields},
                       {"hitm", l.counts.hitm},
                       {"transfers", json_or_null(l.counts.transfers)},
                       {"hitm_per_1k", cell(CachelineColumnId::hitm_per_1k, l)},
                       {"transfers_per_1k", cell(CachelineColumnId::transfers_per_1k, l)},
                       {"hitm_share_percent", json_or_null(l.hitm_share)},
                       {"lcl_hitm", json_or_null(l.lcl_hitm)},
                       {"rmt_hitm", json_or_null(l.rmt_hitm)},
                       {"code", code_rows_json(l.code)}});
    return out;
}

nlohmann::json bars_json(const std::vector<analysis::HistogramBar>& bars) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& b : bars)
        out.push_back({{"label", b.label}, {"count", b.count}});
    return out;
}

nlohmann::json run_section_json(const analysis::RunSection& s) {
    const analysis::RunDetail& d = s.detail;
    nlohmann::json classes = nlohmann::json::array();
    for (const auto& c : s.lock_classes)
        classes.push_back({{"name", c.total.name},
                           {"contentions", json_or_null(c.total.contentions)},
                           {"wait_total_us", json_or_null(c.total.wait_us)},
                           {"waits", bars_json(c.waits)}});
    return {{"run", run_json(d.run)},
            {"simulated_machine", json_or_null(d.run.simulated_machine)},
            {"provenance", d.c2c ? provenance_json(d.run, *d.c2c) : nlohmann::json()},
            {"lines", lines_json(s.lines)},
            {"no_lines_reason", json_or_null(s.no_lines_reason)},
            {"lock_classes", classes},
            {"kernel_locks_unavailable", json_or_null(d.kernel_locks_unavailable)}};
}

nlohmann::json comparison_json(const analysis::Report& r, const analysis::PairSection& c) {
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& f : c.fields)
        fields.push_back({{"field", f.field}, {"before", f.before}, {"after", f.after}});
    nlohmann::json locks = nlohmann::json::array();
    for (const auto& l : c.locks)
        locks.push_back({{"name", l.name},
                         {"contentions_before", json_or_null(l.contentions_before)},
                         {"contentions_after", json_or_null(l.contentions_after)},
                         {"change_percent", json_or_null(l.change_percent())},
                         {"wait_before_us", json_or_null(l.wait_before_us)},
                         {"wait_after_us", json_or_null(l.wait_after_us)}});
    return {{"before", r.runs[c.before].detail.run.id},
            {"after", r.runs[c.after].detail.run.id},
            {"ops_change", json_or_null(c.ops_change)},
            {"object", c.object.empty() ? nlohmann::json() : nlohmann::json(c.object)},
            {"no_fields_reason", json_or_null(c.no_fields_reason)},
            {"fields_hitm_per_1k", fields},
            {"fields_unit", c.fields_unit},
            {"lock_classes", locks},
            {"prediction_run", json_or_null(c.prediction_run)},
            {"prediction", c.prediction ? prediction_json(*c.prediction) : nlohmann::json()}};
}

nlohmann::json scaling_json(const analysis::WorkloadScaling& w) {
    nlohmann::json series = nlohmann::json::array();
    for (const auto& s : w.series) {
        nlohmann::json points = nlohmann::json::array();
        for (const auto& p : s.points)
            points.push_back({{"threads", p.threads},
                              {"median_ops_per_s", p.median},
                              {"min_ops_per_s", p.min},
                              {"max_ops_per_s", p.max},
                              {"repeats", p.repeats}});
        series.push_back(
            {{"name", s.name},
             {"variant", s.variant},
             {"source", store::to_string(s.source)},
             {"machine", s.machine.empty() ? nlohmann::json() : nlohmann::json(s.machine)},
             {"stops_growing_at", json_or_null(s.stops_growing_at)},
             {"points", points}});
    }
    return {{"workload", w.workload}, {"series", series}};
}

} // namespace

nlohmann::json report_json(const analysis::Report& r) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& s : r.runs)
        runs.push_back(run_section_json(s));
    nlohmann::json scaling = nlohmann::json::array();
    for (const auto& w : r.scaling)
        scaling.push_back(scaling_json(w));
    return {{"format", "hitmap-report"},
            {"version", kReportJsonVersion},
            {"database", r.database},
            {"runs", runs},
            {"comparison", r.comparison ? comparison_json(r, *r.comparison) : nlohmann::json()},
            {"scaling", scaling}};
}

} // namespace hitmap::report
