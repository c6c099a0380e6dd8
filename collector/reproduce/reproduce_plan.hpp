#pragma once
// What `hitmap-collect reproduce` runs for an investigation (engine/workloads/investigation.hpp):
// per table row, an untraced run on this machine's real threads for the figures, a traced one
// where the table's cause is read from cacheline data, and with --simulate a run on the
// table's simulated machine. Each is an ordinary RunRequest, stored like any other run.
#include "collector/run/run_request.hpp"
#include "engine/workloads/workload.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::collector {

struct ReproduceOptions {
    bool simulate = false; // also the simulated columns
    bool quick = false;    // the rows' quick sizes and shorter calibrations
    // Where the simulated rows' calibrations are read, WORKLOAD.json each (they are keyed by
    // workload, variant and parameters); empty: measured on this host now (--calibrate-here).
    std::filesystem::path calibrations;
    std::string calibrations_label; // how the tables name that folder
    bool calibrate_missing = false; // measure and add what the folder lacks
    unsigned measured_repeats = 3;  // real-thread runs per row, for their spread
};

// The committed calibrations `reproduce` reads by default: data/calibration/reproduce/ of the
// source tree this binary was built from, or of HITMAP_DATA_DIR.
std::filesystem::path committed_calibrations();

// The workloads that declare an investigation, in registry order; `reproduce all` runs these.
std::vector<const engine::WorkloadInfo*> investigations();
// The workload declaring investigation `id`; WorkloadError naming the known ids otherwise.
const engine::WorkloadInfo& find_investigation(const std::string& id);

// unscaled: the row that anchors the native scale, simulated at this host's speed first.
enum class RowSource { measured, traced, simulated, unscaled };
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

// The run ids of one investigation's rows, filled as the planned runs complete: every
// repetition of each source, in order.
struct RowRunIds {
    std::vector<std::int64_t> measured, traced, simulated, unscaled;
    std::vector<std::int64_t>& operator[](RowSource source);
    const std::vector<std::int64_t>& operator[](RowSource source) const;
};
using ReproductionRuns = std::vector<std::vector<RowRunIds>>; // [table][row]

ReproductionRuns empty_runs(const engine::Investigation& investigation);

} // namespace hitmap::collector
