#pragma once
// Which cacheline analysis a run gets, and the sentence it records about why: probe traces
// replayed (software), precise memory samples of the PMU (hardware), perf's own perf c2c
// (perf), the simulation's own coherence model, or none. `--c2c auto` takes hardware where the
// machine samples memory; it never takes perf, which samples the same events from outside.
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/run/run_request.hpp"
#include "collector/store/records.hpp"
#include "engine/workloads/workload.hpp"

#include <optional>
#include <string>

namespace hitmap::collector {

struct C2cChoice {
    std::optional<store::C2cSource> source; // stored as the run's c2c_source; nullopt: off
    std::string reason;                     // stored as the run's c2c_reason
};

// Throws perf::PerfUnsupported for `--c2c hardware` on a machine without precise memory
// sampling, naming what is missing.
C2cChoice choose_c2c(const RunRequest& request, const engine::WorkloadInfo& workload,
                     const perf::PmuCapabilities& pmu);

} // namespace hitmap::collector
