#pragma once
// The software c2c path of a run: the workload's probe traces are replayed through the
// coherence model and kept, compressed, beside the database for later replays.
#include "collector/run/run_request.hpp"
#include "collector/store/c2c_tables.hpp"
#include "engine/workloads/workload.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hitmap::collector {

store::C2cData analyse_software_c2c(engine::WorkloadResult& result, const C2cOptions& options,
                                    const std::filesystem::path& db_path, std::int64_t run_id);

// What a run's trace kept when a thread's trace buffer (--trace-mb) filled before half of the
// run's operations were traced: its cacheline tables then describe the start of the run only.
struct TraceCap {
    std::uint64_t traced_ops = 0;
    std::uint64_t ops = 0;
    std::uint64_t dropped_records = 0;
    std::uint64_t buffer_mib = 0;
};

// The cap of a run whose trace was capped; nullopt otherwise, and under --trace-window, which
// asks for a part.
std::optional<TraceCap> trace_cap(const engine::WorkloadResult& result,
                                  const store::TraceInfo& trace, const C2cOptions& options);

// The user's line for capped runs: one run named with its counts; a batch's (a suite's) in one
// line naming the runs, since a line per run would bury its tables.
std::string trace_caps_warning(const std::vector<std::pair<std::int64_t, TraceCap>>& caps);

} // namespace hitmap::collector
