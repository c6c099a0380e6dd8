#pragma once
// What `hitmap-collect reproduce` runs for an investigation (engine/workloads/investigation.hpp):
// per table row, an untraced run on this machine's real threads for the figures, a traced one
// where the table's cause is read from cacheline data, and with --simulate a run on the
// table's simulated machine. Each is an ordinary RunRequest, stored like any other run.
#include "collector/run/run_request.hpp"
#include "engine/workloads/workload.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::collector {

struct ReproduceOptions {
    bool simulate = false; // also the simulated columns
    bool quick = false;    // the rows' quick sizes and shorter calibrations
};

// The workloads that declare an investigation, in registry order; `reproduce all` runs these.
std::vector<const engine::WorkloadInfo*> investigations();
// The workload declaring investigation `id`; WorkloadError naming the known ids otherwise.
const engine::WorkloadInfo& find_investigation(const std::string& id);

enum class RowSource { measured, traced, simulated };
std::string_view to_string(RowSource source);

struct PlannedRowRun {
    unsigned table = 0;
    unsigned row = 0;
    RowSource source = RowSource::measured;
    RunRequest request; // one variant, one thread count, one repetition
};

// Every run the investigation's tables need under `options`, table by table, row by row.
std::vector<PlannedRowRun> plan_reproduction(const engine::WorkloadInfo& workload,
                                             const ReproduceOptions& options);

// The run ids of one investigation's rows, filled as the planned runs complete.
struct RowRunIds {
    std::optional<std::int64_t> measured, traced, simulated;
    std::optional<std::int64_t>& operator[](RowSource source);
    const std::optional<std::int64_t>& operator[](RowSource source) const;
};
using ReproductionRuns = std::vector<std::vector<RowRunIds>>; // [table][row]

ReproductionRuns empty_runs(const engine::Investigation& investigation);

} // namespace hitmap::collector
