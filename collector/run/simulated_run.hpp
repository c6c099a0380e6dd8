#pragma once
// Runs on the simulated machine (`run --simulate MACHINE`): the machine and calibrations a
// request needs, resolved once, and one simulated run's results in the store's shapes.
#include "collector/run/run_request.hpp"
#include "collector/sim/calibration.hpp"
#include "collector/sim/machine.hpp"
#include "collector/sim/simulator.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"
#include "collector/store/simulation_table.hpp"
#include "engine/workloads/workload.hpp"

#include <map>

namespace hitmap::collector {

// Checks made before any run or database: the machine exists and has the CPUs asked for, and a
// calibration file parses and holds this workload's requested variants. `host` is checked against
// the allowed CPUs without measuring it. Throws MachineError, CalibrationError.
void validate_simulation(const RunRequest& request);

class SimulationSetup {
public:
    // Resolves the machine; `host` measures its transfer latency now.
    explicit SimulationSetup(const SimulateOptions& options);
    const sim::MachineDescription& machine() const { return machine_; }
    // The variant's calibration from the --calibration file, or one measured now (kept for
    // the request's other runs of it).
    const sim::Calibration& calibration_for(const engine::Workload& workload,
                                            const engine::WorkloadRunConfig& config);
    // Every calibration used so far, for --save-calibration.
    std::vector<sim::Calibration> calibrations() const;

private:
    SimulateOptions options_;
    sim::MachineDescription machine_;
    std::map<std::string, sim::Calibration> calibrations_; // by variant
};

struct SimulatedRun {
    engine::WorkloadResult result;
    store::C2cData c2c;
    store::SimulationRecord record;
    std::vector<store::Metric> metrics; // where the virtual time went
};

// `config` without tracing; its executor is the simulator. Throws sim::SimulationError.
SimulatedRun run_simulated(const engine::Workload& workload, engine::WorkloadRunConfig config,
                           const sim::MachineDescription& machine,
                           const sim::Calibration& calibration);

} // namespace hitmap::collector
