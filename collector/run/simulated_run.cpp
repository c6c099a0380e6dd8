#include "collector/run/simulated_run.hpp"

#include "collector/run/workload_outcome.hpp"
#include "collector/sim/calibrator.hpp"
#include "collector/sim/errors.hpp"
#include "collector/store/machine_info.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <variant>

namespace hitmap::collector {

namespace {

// What a calibration records of the machine that measured it: the CPU, how many, the kernel.
std::string describe_host() {
    const store::MachineInfo m = store::detect_machine();
    return fmt::format("{}, {} CPUs, Linux {}", m.cpu_model.value_or("unknown CPU"),
                       m.cpu_count ? std::to_string(*m.cpu_count) : "?", m.kernel);
}

// The calibrations of a --calibration file; none yet where --calibrate-missing will make it.
std::vector<sim::Calibration> file_calibrations(const SimulateOptions& o) {
    if (!o.calibration_file)
        return {};
    if (!std::filesystem::exists(*o.calibration_file)) {
        if (o.calibrate_missing)
            return {};
        throw sim::CalibrationError(
            fmt::format("{}: no such calibration file; --calibrate-missing measures it there",
                        o.calibration_file->string()));
    }
    return sim::load_calibrations(*o.calibration_file);
}

// The calibration keyed (workload, variant, parameters) as the run, or the one-line refusal
// naming how the nearest calibration of the variant differs.
std::variant<std::size_t, std::string> find_keyed(const std::vector<sim::Calibration>& set,
                                                  const engine::WorkloadInfo& info,
                                                  const std::string& variant,
                                                  const nlohmann::json& params) {
    std::string nearest;
    std::size_t fewest = SIZE_MAX;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const std::string diff = sim::key_difference(set[i], info, variant, params);
        if (diff.empty())
            return i;
        const auto n = static_cast<std::size_t>(std::count(diff.begin(), diff.end(), '='));
        if (set[i].variant == variant && n < fewest) {
            fewest = n;
            nearest = diff;
        }
    }
    const nlohmann::json key = sim::calibration_key(info, params);
    return fmt::format("no calibration of {} {} at {}{}; --calibrate-missing measures it",
                       info.name, variant, key.dump(),
                       nearest.empty() ? "" : " (the nearest was measured at " + nearest + ")");
}

} // namespace

std::filesystem::path reference_calibration_dir() {
    const char* env = std::getenv("HITMAP_DATA_DIR");
    return std::filesystem::path(env && *env ? env : HITMAP_SOURCE_DATA_DIR) / "calibration";
}

void validate_simulation(const RunRequest& request) {
    const SimulateOptions& o = *request.simulate;
    const unsigned cpus = o.machine == "host" ? static_cast<unsigned>(engine::allowed_cpus().size())
                                              : sim::find_machine(o.machine).cpus();
    for (unsigned threads : request.threads)
        if (threads > cpus)
            throw sim::MachineError(fmt::format(
                "machine {} has {} CPUs; --threads {} asks for more", o.machine, cpus, threads));
    const auto file = file_calibrations(o);
    if (file.empty() || o.calibrate_missing)
        return;
    if (file.front().workload != request.workload)
        throw sim::CalibrationError(fmt::format("{}: a calibration of {}, not of {}",
                                                o.calibration_file->string(), file.front().workload,
                                                request.workload));
    const engine::WorkloadInfo& info = engine::find_workload(request.workload).info();
    for (const std::string& variant : request.variants)
        if (const auto found = find_keyed(file, info, variant, request.params);
            std::holds_alternative<std::string>(found))
            throw sim::CalibrationError(
                fmt::format("{}: {}", o.calibration_file->string(), std::get<std::string>(found)));
}

SimulationSetup::SimulationSetup(const SimulateOptions& options)
    : options_(options)
    , machine_(sim::find_machine(options.machine))
    , calibrations_(file_calibrations(options)) {}

const sim::Calibration& SimulationSetup::calibration_for(const engine::Workload& workload,
                                                         const engine::WorkloadRunConfig& config) {
    auto found = find_keyed(calibrations_, workload.info(), config.variant, config.params);
    if (std::holds_alternative<std::string>(found)) {
        if (options_.calibration_file && !options_.calibrate_missing)
            throw sim::CalibrationError(fmt::format("{}: {}", options_.calibration_file->string(),
                                                    std::get<std::string>(found)));
        sim::Calibration measured =
            sim::measure_calibration(workload, config, {.operations = options_.calibration_ops});
        measured.host = describe_host();
        calibrations_.push_back(std::move(measured));
        found = calibrations_.size() - 1;
        if (options_.calibration_file)
            sim::save_calibrations(*options_.calibration_file, calibrations_);
    }
    const std::size_t index = std::get<std::size_t>(found);
    auto it = used_.find(index);
    if (it == used_.end())
        it = used_
                 .emplace(index, options_.native_scale == 1.0
                                     ? calibrations_[index]
                                     : sim::scaled(calibrations_[index], options_.native_scale))
                 .first;
    return it->second;
}

std::vector<sim::Calibration> SimulationSetup::calibrations() const {
    std::vector<sim::Calibration> all;
    for (const auto& [index, c] : used_)
        all.push_back(calibrations_[index]);
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
        total.thin_work_ns += t.thin_work_ns;
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
    // A fixed-duration run is read as netperf and hackbench report one: each CPU's rate over
    // its own run, summed (the mean per-CPU rate times the CPUs). ops / the slowest CPU's end
    // would count the time the others idle after their last operation, which near saturation
    // changes a gain by up to 2x.
    if (config.stop.duration && run.result.ops_per_thread.size() == stats.cpus.size()) {
        double rate = 0;
        for (std::size_t c = 0; c < stats.cpus.size(); ++c)
            if (stats.cpus[c].end_ns > 0)
                rate +=
                    static_cast<double>(run.result.ops_per_thread[c]) * 1e9 / stats.cpus[c].end_ns;
        run.metrics.push_back(metric(kFixedTimeRateMetric, rate, "ops/s", simulated));
    }
    if (total.work_ns > 0)
        run.metrics.push_back(metric("sim.thin_work_fraction", total.thin_work_ns / total.work_ns,
                                     "ratio", simulated));
    if (cpu_ns > 0) {
        run.metrics.push_back(
            metric("sim.access_fraction", total.access_ns / cpu_ns, "ratio", simulated));
        run.metrics.push_back(
            metric("sim.spin_fraction", total.spin_ns / cpu_ns, "ratio", simulated));
    }
    return run;
}

} // namespace hitmap::collector
