#include "collector/report/report_tables.hpp"

#include "collector/analysis/cacheline_columns.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

using analysis::cell_of;

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
        t.rows.push_back({run.id, run.workload, run.variant, cell_of(run.threads),
                          std::string(store::to_string(run.source)), cell_of(run.simulated_machine),
                          cell_of(run.duration_s), cell_of(run.ops), cell_of(run.ops_per_s),
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
                  {{"Run"}},
                  {}};
    const auto columns = analysis::report_line_columns();
    for (const auto& c : columns)
        t.columns.push_back({c.header, c.decimals, c.suffix});
    for (const auto& s : r.runs)
        for (const auto& l : s.lines) {
            std::vector<Cell> row{s.detail.run.id};
            for (const auto& c : columns)
                row.push_back(c.value(l));
            t.rows.push_back(std::move(row));
        }
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
                t.rows.push_back({s.detail.run.id, analysis::line_text(l),
                                  fmt::format("{:#x}", c.offset), c.field, cell_of(c.rmt_hitm),
                                  cell_of(c.lcl_hitm), cell_of(c.load_cycles), cell_of(c.cpu_count),
                                  cell_of(c.cpus), cell_of(c.pid), cell_of(c.tid),
                                  cell_of(c.symbol), cell_of(c.source)});
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
            t.rows.push_back({s.detail.run.id, c.total.name, cell_of(c.total.contentions),
                              cell_of(c.total.wait_us), c.waits.empty() ? Cell() : Cell(buckets)});
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
                          cell_of(percent(analysis::relative_change(f.before, f.after)))});
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
        t.rows.push_back({l.name, cell_of(l.contentions_before), cell_of(l.contentions_after),
                          cell_of(l.change_percent()), cell_of(l.wait_before_us),
                          cell_of(l.wait_after_us)});
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

std::string run_label(const store::RunRecord& run, bool with_workload) {
    return fmt::format("run {}: {}{}, {} threads, {}", run.id,
                       with_workload ? run.workload + " " : std::string(), run.variant,
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
        const analysis::Prediction& p = *c.prediction;
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
