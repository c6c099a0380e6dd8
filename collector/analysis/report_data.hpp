#pragma once
// Everything an exported report says, as plain values read through the store: the runs with
// their sources and hottest lines, a before/after comparison of two runs, lock classes and
// their wait times, and scaling curves. The CLI's Markdown/CSV/JSON and the app's HTML/PDF
// all write this one model, so every format shows the same numbers.
#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/comparison.hpp"
#include "collector/analysis/lock_changes.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/analysis/scaling.hpp"
#include "collector/report/rate.hpp"
#include "collector/report/report_origin.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::analysis {

// A report request the user wrote that cannot be read, e.g. "--runs: 'x' is not a run id".
class ReportRequestError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct ReportRequest {
    // Runs in this order; exactly two complete ones are compared, the first as "before".
    std::vector<std::int64_t> runs;
    // Else every complete run of this workload; else every complete run of the database.
    std::optional<std::string> workload;
    std::size_t lines_per_run = 5; // hottest lines listed per run
    std::size_t fields = 12;       // fields in the comparison
    std::size_t lock_classes = 8;  // per run and in the comparison
};

// "3,18" -> {3, 18}: the `--runs` text both export commands (CLI and app) take. Run ids are
// decimal digits, at least 1; empty items, signs, spaces and hex are refused naming the item.
std::vector<std::int64_t> parse_run_ids(std::string_view text);

struct LockClassRow {
    LockTotal total;
    std::vector<HistogramBar> waits; // empty: the source kept no wait histogram
};

struct RunSection {
    RunDetail detail;
    std::vector<CachelineRow> lines; // hottest first; empty without cacheline data
    std::optional<std::string> no_lines_reason;
    std::vector<LockClassRow> lock_classes;
};

struct PairSection {
    std::size_t before = 0, after = 1; // indexes into Report::runs
    std::optional<double> ops_change;  // after / before - 1, when both are known
    std::string object;                // the object compared field by field; empty: none
    std::optional<std::string> no_fields_reason;
    std::vector<FieldPair> fields; // HITM in `fields_unit`, the hottest first
    std::string fields_unit; // report::rate_unit: "per 1k traced operations", "% of captured HITM"
    std::optional<report::RateBasis> fields_basis; // what `fields` are in proportion to
    std::vector<LockChange> locks;
    std::optional<std::int64_t> prediction_run;
    std::optional<report::Prediction> prediction;
};

struct WorkloadScaling {
    std::string workload;
    std::vector<ScalingSeries> series;
};

struct Report {
    std::string database;        // the file's name, as the report shows it
    report::ReportOrigin origin; // when, on which host and kernel, by which hitmap
    std::vector<RunSection> runs;
    std::optional<PairSection> comparison;
    // The variants of the chosen runs, each over all its runs (every thread count and source).
    std::vector<WorkloadScaling> scaling;
};

// Throws store::NoSuchRun for an unknown id and store::NoMatchingRuns when the request
// selects no run.
Report build_report(store::Database& db, const ReportRequest& request);

} // namespace hitmap::analysis
