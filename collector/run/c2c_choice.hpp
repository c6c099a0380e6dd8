#pragma once
// Which cacheline analysis a run gets, and the sentence it records about why: probe traces
// replayed (software), precise memory samples of the PMU (hardware), perf's own perf c2c
// (perf), the simulation's own coherence model, or none. `--c2c auto` takes hardware where the
// machine samples memory; it never takes perf, which samples the same events from outside.
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/run/run_request.hpp"
#include "engine/workloads/workload.hpp"

#include <string>

namespace hitmap::collector {

enum class C2cPath { off, software, hardware, perf, simulated };

struct C2cChoice {
    C2cPath path = C2cPath::off;
    std::string reason; // stored as the run's c2c_reason
};

// Throws perf::PerfUnsupported for `--c2c hardware` on a machine without precise memory
// sampling, naming what is missing.
C2cChoice choose_c2c(const RunRequest& request, const engine::WorkloadInfo& workload,
                     const perf::PmuCapabilities& pmu);

// The run's c2c_source for a path ("software", "hardware", "perf", "simulated"); empty for off.
std::string c2c_source_name(C2cPath path);

} // namespace hitmap::collector
