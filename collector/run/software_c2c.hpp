#pragma once
// The software c2c path of a run: the workload's probe traces are replayed through the
// coherence model and kept, compressed, beside the database for later replays.
#include "collector/run/run_request.hpp"
#include "collector/store/c2c_tables.hpp"
#include "engine/workloads/workload.hpp"

#include <filesystem>

namespace hitmap::collector {

store::C2cData analyse_software_c2c(engine::WorkloadResult& result, const C2cOptions& options,
                                    const std::filesystem::path& db_path, std::int64_t run_id);

// One line for the user when run `run_id`'s trace holds fewer than half of its operations
// because a thread's trace buffer (--trace-mb) filled: the cacheline tables then describe the
// start of the run only. Empty otherwise, and under --trace-window, which asks for a part.
std::string trace_cap_warning(const engine::WorkloadResult& result, const store::TraceInfo& trace,
                              const C2cOptions& options, std::int64_t run_id);

} // namespace hitmap::collector
