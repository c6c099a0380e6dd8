#pragma once
// A prediction by replay (`hitmap-collect predict RUN --layout …`): a run's stored probe trace
// replayed through the coherence model under other struct layouts, the measured run it can be
// held against, and the prediction stored as a run of its own. In the analysis library so that
// the CLI and the app's tests predict the same way.
#include "collector/c2c/replay.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/trace/trace_file.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

// A run's stored trace, loaded for replays.
struct LoadedTrace {
    collector::StoredTrace trace;
    std::vector<c2c::ThreadTrace> threads; // spans into `trace`: keep it where it is
};

// A run without a trace file, or whose file is missing, unreadable or not the one the run
// wrote, throws collector::TraceFileError naming the run.
std::unique_ptr<LoadedTrace> load_trace(const store::Database& db, const store::RunRecord& run,
                                        const store::C2cData& recorded);

// The layout versions the run's parameters name ("layout.mem_cgroup" -> "v6.0 with
// page_counter v6.1") when the recorded objects are replayed under `layouts`.
std::map<std::string, std::string> predicted_layouts(const store::C2cData& recorded,
                                                     const c2c::LayoutOverrides& layouts);

// The newest complete software-traced run of the same workload, threads and parameters as
// `source` whose layouts are `layouts`: what the prediction can be held against.
std::optional<store::RunRecord> find_measured(const store::Database& db,
                                              const store::RunRecord& source,
                                              const std::map<std::string, std::string>& layouts);

// "mem_cgroup=v6.1,page_counter=v6.1", or "recorded layouts".
std::string layouts_text(const c2c::LayoutOverrides& layouts);

// Stores `predicted` (source's trace replayed under `layouts`) as a complete run predicted
// from `source`, with no trace of its own; returns its id.
std::int64_t store_prediction(store::Database& db, const store::RunRecord& source,
                              const store::C2cData& recorded, const c2c::ReplayResult& predicted,
                              const c2c::LayoutOverrides& layouts);

} // namespace hitmap::analysis
