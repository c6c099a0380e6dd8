#pragma once
// `predict RUN --simulate`: the simulated run RUN simulated again, on its own machine and
// calibration, with the same operations, under other layouts; printed beside the stored run.
// A simulation is a function of those inputs, so the two differ only by the layouts.
#include "collector/cli/commands.hpp"
#include "collector/run/simulated_run.hpp"
#include "collector/store/database.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hitmap::cli {

// A stored simulated run, ready to be simulated again under other layouts (also what
// `predict --optimize --simulate` evaluates its layouts with).
class Resimulation {
public:
    // Throws UsageError when the run was not simulated or did not keep its stop condition.
    Resimulation(store::Database& db, const store::RunRecord& run);

    const sim::MachineDescription& machine() const { return machine_; }

    // Throws what the simulation throws.
    collector::SimulatedRun under(const std::map<std::string, engine::Layout>& layouts) const;

    // Stores `predicted` (a simulation under `layouts`) as a run predicted from the source run.
    std::int64_t store(store::Database& db, const std::map<std::string, engine::Layout>& layouts,
                       const collector::SimulatedRun& predicted) const;

private:
    store::RunRecord run_;
    sim::MachineDescription machine_;
    sim::Calibration calibration_;
    const engine::Workload* workload_ = nullptr;
    engine::WorkloadRunConfig config_;
};

struct SimulatedPrediction {
    std::int64_t run_id = 0;
    std::vector<std::string> layouts; // STRUCT=VERSION|FILE.json, at least one
    bool store = false;               // store the re-simulation as a run linked to RUN
    CommonOptions common;
};

// Throws UsageError (not a simulated run, no layout), and what the simulation throws.
void predict_simulated(const SimulatedPrediction& request);

} // namespace hitmap::cli
