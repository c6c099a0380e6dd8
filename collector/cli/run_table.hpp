#pragma once
#include "collector/run/run_executor.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace hitmap::cli {

// One row per (variant, threads): median ops/s and the spread over the repetitions.
void print_run_table(const std::vector<collector::RunSummary>& runs, bool json);
// The same rows as JSON.
nlohmann::json run_table_json(const std::vector<collector::RunSummary>& runs);

} // namespace hitmap::cli
