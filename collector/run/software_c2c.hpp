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

} // namespace hitmap::collector
