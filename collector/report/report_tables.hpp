#pragma once
// An exported report as named tables of typed cells, and the sentences that go with them:
// what Markdown, CSV and HTML each render in their own syntax, so the formats cannot drift
// apart. A cell is unknown (shown "–", empty in CSV, never 0), text, an integer or a number
// with the column's decimals.
#include "collector/analysis/report_data.hpp"
#include "collector/analysis/table_cell.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace hitmap::report {

using analysis::Cell;
using analysis::cell_text;

struct TableColumn {
    TableColumn(std::string title, int decimals = 2, std::string suffix = {})
        : title(std::move(title))
        , decimals(decimals)
        , suffix(std::move(suffix)) {}

    std::string title;
    int decimals;       // for double cells in text formats; CSV keeps full precision
    std::string suffix; // after a double cell in text formats: "%"
};

struct ReportTable {
    std::string id;    // "runs", "lines", ...: the CSV file's name
    std::string title; // the heading text formats print above it
    std::vector<TableColumn> columns;
    std::vector<std::vector<Cell>> rows;
};

// runs, comparison_fields and comparison_locks (with a comparison), lines, lock_classes,
// scaling; tables without rows are left out, except runs.
std::vector<ReportTable> report_tables(const analysis::Report& report);

// "Throughput: 1.2 M ops/s (measured) -> 1.9 M ops/s (measured), +58.3%", the compared
// object, why fields could not be compared, the stored prediction: the comparison in words.
// Not escaped. Empty without a comparison.
std::vector<std::string> comparison_sentences(const analysis::Report& report);

// "run 3: page-counter-charge v6.0, 2 threads, measured" — how reports and the app name a run;
// `with_workload` false where the reader sees the workload already (a chart of one workload's
// pair): "run 3: v6.0, 2 threads, measured". Not escaped: each output escapes for its medium.
std::string run_label(const store::RunRecord& run, bool with_workload = true);

} // namespace hitmap::report
