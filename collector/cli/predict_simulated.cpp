#include "collector/cli/predict_simulated.hpp"

#include "collector/cli/cli_options.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/prediction_report.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/report/unknown.hpp"
#include "collector/run/engine_locks.hpp"
#include "collector/run/simulated_run.hpp"
#include "collector/run/workload_outcome.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/simulation_table.hpp"

#include <fmt/format.h>

namespace hitmap::cli {

namespace {

// The stored run's declared parameters: its params_json also names what it resolved (layouts,
// the variant's code differences), which are not parameters to give back.
nlohmann::json declared_params(const engine::WorkloadInfo& info, const std::string& params_json) {
    const nlohmann::json stored = nlohmann::json::parse(params_json);
    nlohmann::json params = nlohmann::json::object();
    for (const engine::ParamSpec& spec : info.params)
        if (stored.contains(spec.name))
            params[spec.name] = stored[spec.name];
    return params;
}

// The operations the stored run did: its stop condition as asked.
engine::StopCondition stop_of(const store::RunRecord& run, const nlohmann::json& stats) {
    engine::StopCondition stop;
    const nlohmann::json asked = stats.value("stop", nlohmann::json::object());
    if (asked.contains("duration_ns"))
        stop.duration = std::chrono::nanoseconds(asked["duration_ns"].get<std::int64_t>());
    if (asked.contains("iterations"))
        stop.iterations = asked["iterations"].get<std::uint64_t>();
    if (!stop.duration && !stop.iterations)
        throw UsageError(fmt::format("run {} was stored before simulated runs kept their stop "
                                     "condition: simulate it again",
                                     run.id));
    return stop;
}

std::string layouts_text(const std::map<std::string, engine::Layout>& layouts) {
    std::string out;
    for (const auto& [name, layout] : layouts)
        out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, layout.version);
    return out;
}

} // namespace

Resimulation::Resimulation(store::Database& db, const store::RunRecord& run)
    : run_(run) {
    const auto simulation = store::read_simulation(db, run.id);
    if (!simulation)
        throw UsageError(fmt::format("run {} was not simulated: predict --simulate re-runs a run "
                                     "of `run --simulate` (without --simulate, predict replays a "
                                     "traced run's trace)",
                                     run.id));
    const std::string source = fmt::format("run {}", run.id);
    machine_ = sim::machine_from_json(nlohmann::json::parse(simulation->machine_json), source);
    calibration_ =
        sim::calibration_from_json(nlohmann::json::parse(simulation->calibration_json), source);
    workload_ = &engine::find_workload(run.workload);
    config_.variant = run.variant;
    config_.threads = static_cast<unsigned>(run.threads.value_or(1));
    config_.stop = stop_of(run, nlohmann::json::parse(simulation->stats_json));
    config_.params = declared_params(workload_->info(), run.params_json);
}

collector::SimulatedRun
Resimulation::under(const std::map<std::string, engine::Layout>& layouts) const {
    engine::WorkloadRunConfig config = config_;
    config.layouts = layouts;
    return collector::run_simulated(*workload_, config, machine_, calibration_);
}

std::int64_t Resimulation::store(store::Database& db,
                                 const std::map<std::string, engine::Layout>& layouts,
                                 const collector::SimulatedRun& predicted) const {
    store::RunRecord record = run_;
    record.variant = fmt::format("{} @{}", run_.variant, layouts_text(layouts));
    record.params_json = predicted.result.resolved_params.dump();
    record.c2c_source = store::C2cSource::simulated;
    record.c2c_reason = fmt::format("run {} simulated again on {} under {}", run_.id, machine_.name,
                                    layouts_text(layouts));
    record.predicted_from = run_.id;
    record.note.reset();
    store::RunOutcome finished =
        collector::workload_outcome(predicted.result, store::Source::simulated);
    finished.note = record.c2c_reason;
    for (auto& m : predicted.metrics)
        finished.metrics.push_back(m);
    return db.insert_finished_run(record, finished, [&](store::RunWriter& writer) {
        writer.write(predicted.c2c);
        writer.write(predicted.record);
        if (!predicted.result.locks.empty())
            writer.write(collector::engine_lock_data(predicted.result.locks));
    });
}

void predict_simulated(const SimulatedPrediction& request) {
    if (request.layouts.empty())
        throw UsageError(
            "predict --simulate needs --layout STRUCT=VERSION|FILE.json|btf: the layout "
            "to simulate the run under");
    const auto layouts = parse_layouts(request.layouts);
    store::Database db = store::Database::open(
        request.common.db, {.create_if_missing = false, .read_only = !request.store});
    const store::RunRecord run = require_run(db, request.run_id);
    const Resimulation again(db, run);
    const store::C2cData baseline = require_c2c(db, run);
    const sim::MachineDescription& machine = again.machine();
    const collector::SimulatedRun predicted = again.under(layouts);
    const auto comparison = analysis::compare_prediction(baseline, predicted.c2c, nullptr);
    const store::RunOutcome outcome =
        collector::workload_outcome(predicted.result, store::Source::simulated);

    std::optional<std::int64_t> stored;
    if (request.store)
        stored = again.store(db, layouts, predicted);

    const auto gain = [&]() -> std::optional<double> {
        if (!run.ops_per_s || !outcome.ops_per_s || *run.ops_per_s <= 0)
            return std::nullopt;
        return *outcome.ops_per_s / *run.ops_per_s - 1.0;
    }();
    if (request.common.json) {
        nlohmann::json j = report::prediction_json(comparison);
        j["source_run"] = run.id;
        j["layouts"] = layouts_text(layouts);
        j["machine"] = machine.name;
        j["ops_per_s"] = {{"baseline", report::json_or_null(run.ops_per_s)},
                          {"predicted", report::json_or_null(outcome.ops_per_s)},
                          {"source", "simulated"}};
        j["stored_run"] = stored ? nlohmann::json(*stored) : nlohmann::json();
        fmt::print("{}\n", report::json_text(j));
        return;
    }
    fmt::print("# {}\n# simulated again on {} with its calibration and operations, under {}\n",
               report::run_title(run), machine.name, layouts_text(layouts));
    fmt::print("\nops/s (simulated, virtual time): baseline {}, predicted {} ({})\n\n",
               report::text_or_unknown(run.ops_per_s, "{:.0f}"),
               report::text_or_unknown(outcome.ops_per_s, "{:.0f}"),
               gain ? fmt::format("{:+.1f} %", 100.0 * *gain) : std::string("–"));
    fmt::print("{}", report::format_prediction(comparison, false, "baseline"));
    if (stored)
        fmt::print("\nstored as run {} (source 'simulated', predicted from run {})\n", *stored,
                   run.id);
}

} // namespace hitmap::cli
