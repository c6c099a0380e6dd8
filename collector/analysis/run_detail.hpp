#pragma once
// What a reader of a run or of a pair of runs needs, read through the store alone: the run, its
// cacheline tables, its lock tables, why kernel lock waits are missing, and the stored
// prediction of the pair. The GUI, the CLI's reports and the exports all read runs this way.
#include "collector/analysis/line_drilldown.hpp"
#include "collector/analysis/prediction.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/store/records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

struct RunDetail {
    store::RunRecord run;
    std::optional<store::C2cData> c2c;  // nullopt: collected without c2c
    std::vector<store::LockData> locks; // engine, kernel or imported lock tables
    // Why `run --kernel-locks` stored no kernel rows (no tracefs, no privilege, ...).
    std::optional<std::string> kernel_locks_unavailable;
    // Each c2c line's drill-down (code, HITM split, CPUs, cycles), by line address.
    std::map<std::uint64_t, LineDrilldown> drilldown;
};

struct CompareData {
    RunDetail before, after;
    // A prediction of `after` computed from `before`, when one is stored.
    std::optional<store::RunRecord> prediction_run;
    std::optional<analysis::Prediction> prediction;
};

// Throw store::NoSuchRun for an id the database does not hold.
RunDetail read_run_detail(store::Database& db, std::int64_t run_id);
CompareData read_compare(store::Database& db, std::int64_t before, std::int64_t after);

// The newest stored prediction of `after` from `before` (of `before`'s trace under the layouts
// `after` recorded its objects under), compared with both; empty when none.
struct StoredPrediction {
    std::optional<store::RunRecord> run;
    std::optional<analysis::Prediction> prediction;
};
StoredPrediction read_prediction(store::Database& db, const RunDetail& before,
                                 const RunDetail& after);

// Why a run has no cacheline data, from what the run stored (never a guess).
std::string no_c2c_reason(const store::RunRecord& run);

} // namespace hitmap::analysis
