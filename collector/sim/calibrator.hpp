#pragma once
// Measures a Calibration on this machine for one workload variant, in two single-thread runs of
// the same operations:
//   1. untraced, the probe-free copy: the native time per operation;
//   2. every probe a timing point: TSC deltas per (previous site -> site) segment, medians.
// The timing points cost something of their own; that hook cost is solved so that the segments
// plus the accesses' own hit costs add up to the native time of run 1, and taken off every
// segment. The simulated 1-CPU time therefore matches the untraced native time by construction;
// the fit is stored in the calibration's facts.
#include "collector/sim/calibration.hpp"
#include "collector/sim/machine.hpp"
#include "engine/workloads/workload.hpp"

namespace hitmap::sim {

struct CalibrationPlan {
    std::uint64_t operations = 200000; // per run
    unsigned native_repeats = 3;       // run 1 is repeated and its median taken
};

// `config` names the variant, parameters and layouts; its threads, stop and executor are
// replaced. `host` gives the hit costs the native run paid inside its segments.
Calibration measure_calibration(const engine::Workload& workload,
                                const engine::WorkloadRunConfig& config, const LatencyNs& host,
                                const CalibrationPlan& plan = {});

} // namespace hitmap::sim
