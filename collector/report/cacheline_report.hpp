#pragma once
// The perf-c2c-like report of a run's software c2c data: Trace Event Information, the Shared
// Data Cache Line Table and, per line, the Pareto rows by offset with field names, per-CPU
// counts and the field pairs. Every count is shown raw and per 1,000 traced operations; what
// the run's source could not measure (store::KnownCounts) is "–" in text and null in JSON.
#include "collector/analysis/line_drilldown.hpp"
#include "collector/store/c2c_tables.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hitmap::report {

struct C2cReportOptions {
    std::size_t max_lines = 10; // lines in the Pareto section
    bool only_shared = true;    // drop lines without any transfer
    // The lines' drill-down (analysis::line_drilldowns), shown under each Pareto line; null:
    // none.
    const std::map<std::uint64_t, analysis::LineDrilldown>* drilldown = nullptr;
};

// The run's object names make the lines readable ("top/mid/leaf/memory line 0").
std::string format_c2c_report(const store::C2cData& data, const std::string& title,
                              const C2cReportOptions& options = {});
nlohmann::json c2c_report_json(const store::C2cData& data, const C2cReportOptions& options = {});

// perf c2c's rows of a line (analysis::CodeRow) as JSON objects, unknown figures null.
nlohmann::json code_rows_json(const std::vector<analysis::CodeRow>& rows);

} // namespace hitmap::report
