#pragma once
// `report --locks`: a run's stored lock tables as lock_stat 0.4 text or as JSON.
#include "collector/store/lock_tables.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

// Each table as a "# source ..." comment line and its lock_stat 0.4 text, written a class at a
// time as read from the store. perf-only fields (lock types, pids, stacks) and the wait
// histograms are left to the JSON. The text parses back (import lockstat) to the same numbers.
// Control characters in stored names and symbols are printed escaped.
void write_lock_report_text(std::FILE* out, store::Database& db, std::int64_t run_id);

// `fields` (run, kernel_locks) and "lock_tables", every stored value of the run's lock tables
// (null where the source provided none), as dump(2) would print it, but written a class at a
// time as read from the store, so that memory does not grow with the table.
void write_lock_report_json(std::FILE* out, store::Database& db, const nlohmann::json& fields,
                            std::int64_t run_id);

} // namespace hitmap::cli
