#pragma once
// `predict RUN --simulate`: the simulated run RUN simulated again, on its own machine and
// calibration, with the same operations, under other layouts; printed beside the stored run.
// A simulation is a function of those inputs, so the two differ only by the layouts.
#include "collector/cli/commands.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hitmap::cli {

struct SimulatedPrediction {
    std::int64_t run_id = 0;
    std::vector<std::string> layouts; // STRUCT=VERSION|FILE.json, at least one
    bool store = false;               // store the re-simulation as a run linked to RUN
    CommonOptions common;
};

// Throws UsageError (not a simulated run, no layout), and what the simulation throws.
void predict_simulated(const SimulatedPrediction& request);

} // namespace hitmap::cli
