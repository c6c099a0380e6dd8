#pragma once
// An exported report as JSON (schemas/report.schema.json): the runs with their sources,
// hottest lines and lock classes, the comparison of two runs, and the scaling curves.
// Unknown values are null, never 0.
#include "collector/analysis/report_data.hpp"

#include <nlohmann/json.hpp>

namespace hitmap::report {

inline constexpr int kReportJsonVersion = 1;

nlohmann::json report_json(const analysis::Report& report);

} // namespace hitmap::report
