#pragma once
// What every report says about a run before its numbers: what it is, where its numbers came
// from, and how good the data is. Shared by show, report and predict (text and JSON).
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::report {

// "run 3: page-counter-charge v6.0 x2 threads, 1.00 s, 123 ops (traced)"; unknowns as "–".
std::string run_title(const store::RunRecord& run);

// The run as JSON: identity, source, throughput (null where unknown), c2c source and reason.
nlohmann::json run_json(const store::RunRecord& run);

// "# ..." header lines naming the sources of a c2c report's numbers: the run's throughput
// source, the replay's clock, model caches, cost table and what was dropped.
std::string provenance_text(const store::RunRecord& run, const store::C2cData& data);
nlohmann::json provenance_json(const store::RunRecord& run, const store::C2cData& data);

// The run's metrics with their sources, units, availability (and why not) and, for counters,
// whether the value was extrapolated from a multiplexed count.
nlohmann::json metrics_json(const std::vector<store::Metric>& metrics);

} // namespace hitmap::report
