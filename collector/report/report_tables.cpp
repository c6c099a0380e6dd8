#include "collector/report/report_tables.hpp"

#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

template <class T> Cell known_or_not(const std::optional<T>& v) {
    if (!v)
        return std::monostate{};
    if constexpr (std::is_integral_v<T>)
        return static_cast<std::int64_t>(*v);
    else if constexpr (std::is_floating_point_v<T>)
        return static_cast<double>(*v);
    else
        return std::string(*v);
}

Cell integer(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}

ReportTable runs_table(const analysis::Report& r) {
    ReportTable t{"runs",
                  "Runs",
                  {{"Run"},
                   {"Workload"},
                   {"Variant"},
                   {"Threads"},
                   {"Source"},
                   {"Simulated machine"},
                   {"Duration s", 6},
                   {"Ops"},
                   {"Ops/s", 0},
                   {"Cachelines"}},
                  {}};
    for (const auto& s : r.runs) {
        const store::RunRecord& run = s.detail.run;
        t.rows.push_back({run.id, run.workload, run.variant, known_or_not(run.threads),
                          std::string(store::to_string(run.source)),
                          known_or_not(run.simulated_machine), known_or_not(run.duration_s),
                          known_or_not(run.ops), known_or_not(run.ops_per_s),
                          s.detail.c2c ? Cell(std::string(store::to_string(
                                             run.c2c_source.value_or(store::C2cSource::software))))
                                       : Cell(fmt::format("none: {}", *s.no_lines_reason))});
    }
    return t;
}

ReportTable lines_table(const analysis::Report& r) {
    ReportTable t{"lines",
                  "Hottest cachelines per run (per 1k traced operations; a capture without "
                  "operations: % of its HITMs)",
                  {{"Run"},
                   {"Line"},
                   {"Fields"},
                   {"HITM"},
                   {"HITM/1k", 2},
                   {"HITM % of capture", 1},
                   {"Transfers"},
                   {"Transfers/1k", 2}},
                  {}};
    for (const auto& s : r.runs)
        for (const auto& l : s.lines)
            t.rows.push_back({s.detail.run.id, l.line, l.fields, integer(l.hitm),
                              known_or_not(l.hitm_per_1k), known_or_not(l.hitm_share),
                              known_or_not(l.transfers), known_or_not(l.transfers_per_1k)});
    return t;
}

// perf c2c's rows of each hottest line: the code behind the HITMs (imports and perf runs).
ReportTable code_table(const analysis::Report& r) {
    ReportTable t{"code",
                  "Code on the hottest lines (perf c2c's rows; HITM counts from its percentages, "
                  "mean cycles per sample)",
                  {{"Run"},
                   {"Line"},
                   {"Offset"},
                   {"Field"},
                   {"Rmt HITM"},
                   {"Lcl HITM"},
                   {"Load cycles", 0},
                   {"CPUs"},
                   {"Node{cpus}"},
                   {"Pid"},
                   {"Tid"},
                   {"Symbol"},
                   {"Source:Line"}},
                  {}};
    for (const auto& s : r.runs)
        for (const auto& l : s.lines)
            for (const auto& c : l.code)
                t.rows.push_back({s.detail.run.id, l.line, fmt::format("{:#x}", c.offset), c.field,
                                  known_or_not(c.rmt_hitm), known_or_not(c.lcl_hitm),
                                  known_or_not(c.load_cycles), known_or_not(c.cpu_count),
                                  known_or_not(c.cpus), known_or_not(c.pid), known_or_not(c.tid),
                                  known_or_not(c.symbol), known_or_not(c.source)});
    return t;
}

ReportTable locks_table(const analysis::Report& r) {
    ReportTable t{"lock_classes",
                  "Lock classes per run",
                  {{"Run"}, {"Class"}, {"Contentions", 0}, {"Wait total µs", 2}, {"Wait buckets"}},
                  {}};
    for (const auto& s : r.runs)
        for (const auto& c : s.lock_classes) {
            std::string buckets;
            for (const auto& b : c.waits)
                buckets += fmt::format("{}{} {:g}", buckets.empty() ? "" : ", ", b.label, b.count);
            t.rows.push_back({s.detail.run.id, c.total.name, known_or_not(c.total.contentions),
                              known_or_not(c.total.wait_us),
                              c.waits.empty() ? Cell() : Cell(buckets)});
        }
    return t;
}

std::optional<double> percent(std::optional<double> fraction) {
    return fraction ? std::optional(*fraction * 100) : std::nullopt;
}

ReportTable fields_table(const analysis::PairSection& c) {
    ReportTable t{"comparison_fields",
                  fmt::format("HITM per field of {} ({})", c.object, c.fields_unit),
                  {{"Field"}, {"Before", 2}, {"After", 2}, {"Change %", 1}},
                  {}};
    for (const auto& f : c.fields)
        t.rows.push_back({f.field, f.before, f.after,
                          known_or_not(percent(analysis::relative_change(f.before, f.after)))});
    return t;
}

ReportTable lock_changes_table(const analysis::PairSection& c) {
    ReportTable t{"comparison_locks",
                  "Lock classes before and after",
                  {{"Class"},
                   {"Contentions before", 0},
                   {"Contentions after", 0},
                   {"Change %", 1},
                   {"Wait total before µs", 2},
                   {"Wait total after µs", 2}},
                  {}};
    for (const auto& l : c.locks)
        t.rows.push_back({l.name, known_or_not(l.contentions_before),
                          known_or_not(l.contentions_after), known_or_not(l.change_percent()),
                          known_or_not(l.wait_before_us), known_or_not(l.wait_after_us)});
    return t;
}

ReportTable scaling_table(const analysis::Report& r) {
    ReportTable t{"scaling",
                  "Scaling: ops/s per thread count (median, min, max over repeats)",
                  {{"Workload"},
                   {"Series"},
                   {"Threads"},
                   {"Median ops/s", 0},
                   {"Min ops/s", 0},
                   {"Max ops/s", 0},
                   {"Repeats"}},
                  {}};
    for (const auto& w : r.scaling)
        for (const auto& s : w.series)
            for (const auto& p : s.points)
                t.rows.push_back({w.workload, s.name, std::int64_t{p.threads}, p.median, p.min,
                                  p.max, std::int64_t{p.repeats}});
    return t;
}

std::string ops_text(const store::RunRecord& run) {
    return fmt::format(
        "{} ({})", run.ops_per_s ? rate_text(*run.ops_per_s) + " ops/s" : std::string(unknown_text),
        store::to_string(run.source));
}

} // namespace

std::string cell_text(const Cell& cell, int decimals) {
    struct Visit {
        int decimals;
        std::string operator()(std::monostate) const { return std::string(unknown_text); }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(std::int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const { return fmt::format("{:.{}f}", v, decimals); }
    };
    return std::visit(Visit{decimals}, cell);
}

std::string run_label(const store::RunRecord& run) {
    return fmt::format("run {}: {} {}, {} threads, {}", run.id, run.workload, run.variant,
                       text_or_unknown(run.threads, "{}"), store::to_string(run.source));
}

std::vector<ReportTable> report_tables(const analysis::Report& r) {
    std::vector<ReportTable> tables{runs_table(r)};
    if (r.comparison) {
        tables.push_back(fields_table(*r.comparison));
        tables.push_back(lock_changes_table(*r.comparison));
    }
    tables.push_back(lines_table(r));
    tables.push_back(code_table(r));
    tables.push_back(locks_table(r));
    tables.push_back(scaling_table(r));
    std::erase_if(tables, [](const ReportTable& t) { return t.id != "runs" && t.rows.empty(); });
    return tables;
}

std::vector<std::string> comparison_sentences(const analysis::Report& r) {
    if (!r.comparison)
        return {};
    const analysis::PairSection& c = *r.comparison;
    const store::RunRecord &b = r.runs[c.before].detail.run, &a = r.runs[c.after].detail.run;
    std::vector<std::string> out{
        fmt::format("Before: {}", run_label(b)), fmt::format("After: {}", run_label(a)),
        fmt::format("Throughput: {} → {}{}", ops_text(b), ops_text(a),
                    c.ops_change ? fmt::format(", {:+.1f}%", *c.ops_change * 100) : "")};
    if (b.source != a.source)
        out.push_back("The two throughputs come from different sources and do not compare.");
    if (!c.object.empty())
        out.push_back(
            fmt::format("Object compared field by field: {} (the hottest line's)", c.object));
    if (c.no_fields_reason)
        out.push_back(fmt::format("No field comparison: {}", *c.no_fields_reason));
    if (c.prediction && c.prediction_run) {
        const auto rate = [](const std::optional<double>& v) {
            return text_or_unknown(v, "{:.1f}");
        };
        const report::Prediction& p = *c.prediction;
        out.push_back(fmt::format(
            "Prediction run {} (from run {}): the line holding usage moves {}/1k recorded → "
            "{}/1k predicted{}",
            *c.prediction_run, b.id, rate(p.usage_line_recorded.transfers),
            rate(p.usage_line_predicted.transfers),
            p.usage_line_measured ? fmt::format(" → {}/1k measured in run {}",
                                                rate(p.usage_line_measured->transfers), a.id)
                                  : ""));
    }
    return out;
}

} // namespace hitmap::report
