#pragma once
// Runs on the simulated machine (`run --simulate MACHINE`): the machine and calibrations a
// request needs, resolved once, and one simulated run's results in the store's shapes.
#include "collector/run/run_request.hpp"
#include "collector/sim/calibration.hpp"
#include "collector/sim/machine_description.hpp"
#include "collector/sim/simulator.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"
#include "collector/store/simulation_table.hpp"
#include "engine/workloads/workload.hpp"

#include <map>

namespace hitmap::collector {

// The folder of the committed calibrations: data/calibration/ of the source tree this binary
// was built from, or HITMAP_DATA_DIR/calibration/. `suite ci` reads WORKLOAD.json there,
// `reproduce` its reproduce/ folder.
std::filesystem::path reference_calibration_dir();

// Checks made before any run or database: the machine exists and has the CPUs asked for, and a
// calibration file parses and holds a calibration of every requested variant at the request's
// parameters (unless --calibrate-missing). `host` is checked against the allowed CPUs without
// measuring it. Throws MachineError, CalibrationError.
void validate_simulation(const RunRequest& request);

class SimulationSetup {
public:
    // Resolves the machine; `host` measures its transfer latency now.
    explicit SimulationSetup(const SimulateOptions& options);
    const sim::MachineDescription& machine() const { return machine_; }
    // The calibration of the run's key (workload, variant, parameters) from the --calibration
    // file, or one measured now (kept for the request's other runs of it, and with
    // --calibrate-missing added to the file), times the native scale.
    const sim::Calibration& calibration_for(const engine::Workload& workload,
                                            const engine::WorkloadRunConfig& config);
    // Every calibration used so far, unscaled, for --save-calibration.
    std::vector<sim::Calibration> calibrations() const;

private:
    SimulateOptions options_;
    sim::MachineDescription machine_;
    std::vector<sim::Calibration> calibrations_;   // the file's, then those measured here
    std::map<std::size_t, sim::Calibration> used_; // index in calibrations_ -> scaled
};

// The metric of a fixed-duration simulated run that holds its throughput as a fixed-time
// benchmark reports it: the sum over CPUs of each CPU's operations over its own end.
inline constexpr const char* kFixedTimeRateMetric = "sim.fixed_time_ops_per_s";

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
