#pragma once
// `report --locks`: a run's stored lock tables as lock_stat 0.4 text or as JSON.
#include "collector/store/lock_tables.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hitmap::cli {

// Each table as a "# source ..." comment line and its lock_stat 0.4 text. perf-only fields
// (lock types, pids, stacks) and the wait histograms are left to the JSON. The text parses
// back (import lockstat) to the same numbers.
std::string format_lock_tables(const std::vector<store::LockData>& tables);

// Every stored value; a value the source did not provide is null.
nlohmann::json lock_tables_json(const std::vector<store::LockData>& tables);

} // namespace hitmap::cli
