#include "collector/analysis/report_data.hpp"

#include "collector/report/c2c_report.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/rate.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/store/errors.hpp"

#include <charconv>
#include <fmt/format.h>
#include <map>
#include <set>

namespace hitmap::analysis {

namespace {

std::vector<store::RunRecord> selected_runs(store::Database& db, const ReportRequest& request) {
    std::vector<store::RunRecord> runs;
    if (!request.runs.empty()) {
        for (const std::int64_t id : request.runs) {
            auto run = db.run(id);
            if (!run)
                throw store::NoSuchRun(db.path(), id);
            runs.push_back(std::move(*run));
        }
        return runs;
    }
    runs = db.runs({request.workload, std::nullopt, store::RunStatus::complete, std::nullopt});
    if (runs.empty())
        throw store::NoMatchingRuns(
            db.path(), request.workload ? fmt::format("no complete run of workload '{}'",
                                                      report::escape_control(*request.workload))
                                        : std::string("no complete run to report"));
    return runs;
}

RunSection run_section(store::Database& db, const store::RunRecord& run,
                       const ReportRequest& request) {
    RunSection s{read_run_detail(db, run.id), {}, {}, {}};
    if (s.detail.c2c)
        s.lines = cacheline_rows(*s.detail.c2c, {true, request.lines_per_run, &s.detail.drilldown});
    else
        s.no_lines_reason = report::no_c2c_reason(run);
    for (LockTotal& t : lock_totals(s.detail.locks)) {
        if (s.lock_classes.size() == request.lock_classes)
            break;
        LockClassRow row{std::move(t), {}};
        for (const auto& table : s.detail.locks)
            if (const auto h = table.histograms.find(row.total.name); h != table.histograms.end())
                row.waits = histogram_bars(h->second);
        s.lock_classes.push_back(std::move(row));
    }
    return s;
}

PairSection compare(store::Database& db, const RunSection& before, const RunSection& after,
                    const ReportRequest& request) {
    PairSection c;
    c.ops_change = relative_change(before.detail.run.ops_per_s, after.detail.run.ops_per_s);
    const store::C2cData* b = before.detail.c2c ? &*before.detail.c2c : nullptr;
    const store::C2cData* a = after.detail.c2c ? &*after.detail.c2c : nullptr;
    if (const engine::ObjectInfo* object = b && a ? hottest_object(*b) : nullptr) {
        c.object = object->name;
        c.fields = field_pairs(*b, *a, object->name, request.fields);
        c.fields_basis = report::rate_basis(*b);
        c.fields_unit = report::rate_unit(c.fields_basis);
    } else {
        c.no_fields_reason = !b || !a ? "both runs need cacheline data to compare fields"
                                      : "the runs' cacheline data names no object";
    }
    c.locks = lock_changes(before.detail.locks, after.detail.locks);
    if (c.locks.size() > request.lock_classes)
        c.locks.resize(request.lock_classes);
    auto [run, prediction] = read_prediction(db, before.detail, after.detail);
    c.prediction_run = run ? std::optional(run->id) : std::nullopt;
    c.prediction = std::move(prediction);
    return c;
}

} // namespace

std::vector<std::int64_t> parse_run_ids(std::string_view text) {
    std::vector<std::int64_t> ids;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = text.substr(start, comma - start);
        std::int64_t id = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
        if (ec != std::errc() || end != item.data() + item.size() || id < 1)
            throw ReportRequestError(fmt::format("--runs: '{}' is not a run id", item));
        ids.push_back(id);
        if (comma == std::string_view::npos)
            return ids;
        start = comma + 1;
    }
}

Report build_report(store::Database& db, const ReportRequest& request) {
    Report r;
    r.database = db.path().filename().string();
    r.origin = report::this_origin();
    std::map<std::string, std::set<std::string>> variants; // workload -> variants chosen
    for (const store::RunRecord& run : selected_runs(db, request)) {
        r.runs.push_back(run_section(db, run, request));
        variants[run.workload].insert(run.variant);
    }
    if (r.runs.size() == 2 && request.runs.size() == 2 &&
        r.runs[0].detail.run.status == store::RunStatus::complete &&
        r.runs[1].detail.run.status == store::RunStatus::complete)
        r.comparison = compare(db, r.runs[0], r.runs[1], request);
    // The chosen variants over every run of theirs (each thread count and source): a report
    // of v6.0 against v6.1 draws those two curves, not every variant stored.
    const std::vector<store::RunRecord> all = db.runs();
    for (const auto& [workload, chosen] : variants) {
        std::vector<ScalingSeries> series = scaling_series(all, workload);
        std::erase_if(series, [&](const ScalingSeries& s) { return !chosen.contains(s.variant); });
        if (!series.empty())
            r.scaling.push_back({workload, std::move(series)});
    }
    return r;
}

} // namespace hitmap::analysis
