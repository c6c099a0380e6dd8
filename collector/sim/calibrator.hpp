#pragma once
// Measures a Calibration on this machine for one workload variant, in two single-thread runs of
// the same operations:
//   1. untraced, the probe-free copy: the native time per operation (the fastest of many short
//      runs);
//   2. every probe a timing point: TSC deltas per (previous site -> site) segment, medians.
// The timing points cost something of their own: that hook cost is solved so that the segments
// add up to the native time of run 1, and taken off every segment. Medians below it are clamped
// to 0 and the rest scaled so the sum still matches: a 1-CPU simulation without misses takes the
// untraced native time by construction. The fit is stored in the calibration's facts.
#include "collector/sim/calibration.hpp"
#include "engine/workloads/workload.hpp"

namespace hitmap::sim {

struct CalibrationPlan {
    std::uint64_t operations = 200000; // per timed run, at most
    double max_seconds = 0.1; // of native time in the timed run: a slow operation runs fewer
    // Run 1 is many short runs and their fastest is taken: on a shared machine a run of a few
    // milliseconds often runs without being preempted, one of 0.1 s rarely does.
    unsigned native_repeats = 40;
    double native_seconds = 0.01; // per native run
};

// `config` names the variant, parameters and layouts; its threads, stop and executor are
// replaced. Throws CalibrationError.
Calibration measure_calibration(const engine::Workload& workload,
                                const engine::WorkloadRunConfig& config,
                                const CalibrationPlan& plan = {});

} // namespace hitmap::sim
