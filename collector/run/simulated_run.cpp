#include "collector/run/simulated_run.hpp"

#include "collector/run/workload_outcome.hpp"
#include "collector/sim/calibrator.hpp"
#include "collector/sim/errors.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::collector {

void validate_simulation(const RunRequest& request) {
    const SimulateOptions& o = *request.simulate;
    const unsigned cpus = o.machine == "host" ? static_cast<unsigned>(engine::allowed_cpus().size())
                                              : sim::find_machine(o.machine).cpus();
    for (unsigned threads : request.threads)
        if (threads > cpus)
            throw sim::MachineError(fmt::format(
                "machine {} has {} CPUs; --threads {} asks for more", o.machine, cpus, threads));
    if (!o.calibration_file)
        return;
    const auto file = sim::load_calibrations(*o.calibration_file);
    if (file.front().workload != request.workload)
        throw sim::CalibrationError(fmt::format("{}: a calibration of {}, not of {}",
                                                o.calibration_file->string(), file.front().workload,
                                                request.workload));
    for (const std::string& variant : request.variants)
        if (std::none_of(file.begin(), file.end(),
                         [&](const sim::Calibration& c) { return c.variant == variant; }))
            throw sim::CalibrationError(fmt::format("{}: no calibration of variant {}",
                                                    o.calibration_file->string(), variant));
}

SimulationSetup::SimulationSetup(const SimulateOptions& options)
    : options_(options)
    , machine_(sim::find_machine(options.machine)) {
    if (options.calibration_file)
        for (sim::Calibration& c : sim::load_calibrations(*options.calibration_file))
            calibrations_.emplace(c.variant, std::move(c));
}

const sim::Calibration& SimulationSetup::calibration_for(const engine::Workload& workload,
                                                         const engine::WorkloadRunConfig& config) {
    auto it = calibrations_.find(config.variant);
    if (it == calibrations_.end() && options_.calibration_file)
        throw sim::CalibrationError(fmt::format("{}: no calibration of variant {}",
                                                options_.calibration_file->string(),
                                                config.variant));
    if (it == calibrations_.end())
        it = calibrations_
                 .emplace(config.variant,
                          sim::measure_calibration(workload, config,
                                                   {.operations = options_.calibration_ops}))
                 .first;
    return it->second;
}

std::vector<sim::Calibration> SimulationSetup::calibrations() const {
    std::vector<sim::Calibration> all;
    for (const auto& [variant, c] : calibrations_)
        all.push_back(c);
    return all;
}

SimulatedRun run_simulated(const engine::Workload& workload, engine::WorkloadRunConfig config,
                           const sim::MachineDescription& machine,
                           const sim::Calibration& calibration) {
    sim::Simulator simulator(machine, calibration);
    config.trace = {};
    config.executor = &simulator;
    SimulatedRun run;
    {
        const engine::SimulationScope scope(&simulator);
        run.result = workload.run(config, {});
    }
    const sim::SimulationStats& stats = simulator.stats();

    store::TraceInfo info;
    info.format = "simulated";
    info.threads = config.threads;
    info.traced_ops = run.result.ops;
    info.model_cpus = "thread";
    info.line_size = machine.line_size;
    info.clock = "virtual";
    info.cost_table = "machine:" + machine.name;
    run.c2c = store::C2cData{run.result.objects.objects(), info, simulator.c2c_result()};
    run.c2c.trace.records = run.c2c.result.records;

    nlohmann::json per_cpu = nlohmann::json::array();
    sim::CpuTime total;
    for (const sim::CpuTime& t : stats.cpus) {
        per_cpu.push_back({{"work_ns", t.work_ns},
                           {"access_ns", t.access_ns},
                           {"spin_ns", t.spin_ns},
                           {"end_ns", t.end_ns}});
        total.work_ns += t.work_ns;
        total.access_ns += t.access_ns;
        total.spin_ns += t.spin_ns;
    }
    // The stop condition as asked, so `predict --simulate` re-runs exactly these operations.
    nlohmann::json stop = nlohmann::json::object();
    if (config.stop.duration)
        stop["duration_ns"] = config.stop.duration->count();
    if (config.stop.iterations)
        stop["iterations"] = *config.stop.iterations;
    nlohmann::json stats_json = {{"seconds", stats.seconds},
                                 {"accesses", stats.accesses},
                                 {"switches", stats.switches},
                                 {"stop", stop},
                                 {"cpus", per_cpu}};
    if (stats.caches)
        stats_json["caches"] = {{"l2", stats.caches->l2},
                                {"llc", stats.caches->llc},
                                {"memory", stats.caches->memory},
                                {"percpu_accesses", stats.caches->percpu_accesses},
                                {"percpu_transfers", stats.caches->percpu_transfers}};
    run.record =
        store::SimulationRecord{machine.name, sim::machine_to_json(machine).dump(),
                                sim::calibration_to_json(calibration).dump(), stats_json.dump()};
    const auto simulated = store::Source::simulated;
    const double cpu_ns = stats.seconds * 1e9 * static_cast<double>(config.threads);
    run.metrics = {
        metric("sim.accesses", static_cast<double>(stats.accesses), "accesses", simulated),
        metric("sim.switches", static_cast<double>(stats.switches), "switches", simulated),
        metric("sim.work_ns", total.work_ns, "ns", simulated),
        metric("sim.access_ns", total.access_ns, "ns", simulated),
        metric("sim.spin_ns", total.spin_ns, "ns", simulated),
    };
    if (stats.caches) {
        // Where the machine's finite caches served what the coherence model counted as hits.
        const double ops = static_cast<double>(std::max<std::uint64_t>(run.result.ops, 1));
        run.metrics.push_back(metric("sim.l2_hits_per_op",
                                     static_cast<double>(stats.caches->l2) / ops, "accesses/op",
                                     simulated));
        run.metrics.push_back(metric("sim.llc_hits_per_op",
                                     static_cast<double>(stats.caches->llc) / ops, "accesses/op",
                                     simulated));
        run.metrics.push_back(metric("sim.memory_reads_per_op",
                                     static_cast<double>(stats.caches->memory) / ops, "accesses/op",
                                     simulated));
        if (stats.caches->percpu_accesses > 0) {
            run.metrics.push_back(metric("sim.percpu_accesses_per_op",
                                         static_cast<double>(stats.caches->percpu_accesses) / ops,
                                         "accesses/op", simulated));
            run.metrics.push_back(metric("sim.percpu_transfers_per_op",
                                         static_cast<double>(stats.caches->percpu_transfers) / ops,
                                         "transfers/op", simulated));
        }
    }
    if (cpu_ns > 0) {
        run.metrics.push_back(
            metric("sim.access_fraction", total.access_ns / cpu_ns, "ratio", simulated));
        run.metrics.push_back(
            metric("sim.spin_fraction", total.spin_ns / cpu_ns, "ratio", simulated));
    }
    return run;
}

} // namespace hitmap::collector
