#include "collector/run/run_executor.hpp"

#include "collector/perf/pmu_capabilities.hpp"
#include "collector/run/c2c_choice.hpp"
#include "collector/run/c2c_collector.hpp"
#include "collector/run/cancel.hpp"
#include "collector/run/engine_locks.hpp"
#include "collector/run/kernel_locks.hpp"
#include "collector/run/memory_budget.hpp"
#include "collector/run/perf_recording.hpp"
#include "collector/run/simulated_run.hpp"
#include "collector/run/thread_counters.hpp"
#include "collector/run/thread_hooks.hpp"
#include "collector/run/trace_cleanup.hpp"
#include "collector/run/workload_outcome.hpp"
#include "collector/store/database.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/support/error_text.hpp"
#include "engine/workloads/workload.hpp"

#include <atomic>
#include <condition_variable>
#include <fmt/format.h>
#include <thread>

namespace hitmap::collector {

namespace {

engine::WorkloadRunConfig workload_config(const RunRequest& request, const PlannedRun& plan,
                                          std::optional<store::C2cSource> c2c) {
    engine::WorkloadRunConfig config;
    config.variant = plan.variant;
    config.threads = plan.threads;
    config.stop = request.stop;
    config.stop.cancel = &cancel_requested();
    config.params = request.params;
    config.layouts = request.layouts;
    // A simulation counts every access itself and hardware samples (ours or perf's) see the
    // real accesses: only the software path traces.
    config.trace.enabled = c2c == store::C2cSource::software;
    config.trace.records_per_thread =
        request.c2c.trace_bytes_per_thread / sizeof(engine::TraceRecord);
    config.trace.window = request.c2c.window;
    config.trace.clock = request.c2c.clock;
    return config;
}

std::string params_json(const RunRequest& request, const engine::WorkloadRunConfig& config) {
    nlohmann::json params = request.params;
    for (const auto& [name, layout] : config.layouts)
        params["layout." + name] = layout.version;
    return params.dump();
}

// Updates the progress bar from the clock while a duration-bound run works.
class ProgressTicker {
public:
    ProgressTicker(Progress& progress, const engine::StopCondition& stop) {
        if (!stop.duration)
            return;
        thread_ = std::jthread([&progress, total = *stop.duration](std::stop_token token) {
            const auto begin = std::chrono::steady_clock::now();
            std::mutex m;
            std::condition_variable_any cv;
            std::unique_lock lock(m);
            while (!token.stop_requested()) {
                cv.wait_for(lock, token, std::chrono::milliseconds(100), [] { return false; });
                const auto elapsed = std::chrono::steady_clock::now() - begin;
                progress.update(std::min(1.0, std::chrono::duration<double>(elapsed) / total * 0.9),
                                "running");
            }
        });
    }

private:
    std::jthread thread_;
};

} // namespace

RunExecutor::RunExecutor(store::Database& db, Progress& progress)
    : db_(db)
    , progress_(progress) {
    remove_orphan_traces(db_);
    pmu_ = perf::detect_pmu();
    machine_id_ = db_.upsert_machine(store::detect_machine(), pmu_.to_json().dump());
}

ValidatedRequest RunExecutor::validate(RunRequest request) {
    const engine::Workload& workload = engine::find_workload(request.workload);
    // Before any run is stored: --c2c hardware on a machine that cannot sample memory (only a
    // hardware request needs the PMU here), --c2c perf where perf cannot record memory events
    // (perf's reason).
    if (request.c2c.source == C2cMode::hardware)
        choose_c2c(request, workload.info(), perf::detect_pmu());
    if (request.c2c.source == C2cMode::perf &&
        choose_c2c(request, workload.info(), {}).source == store::C2cSource::perf)
        probe_perf(request.c2c.perf, PerfRecorder::c2c);
    for (const PlannedRun& plan : plan_runs(request)) {
        if (plan.repetition == 0)
            workload.validate(workload_config(request, plan, std::nullopt));
    }
    // Budgeted as traced unless sampling is asked for (auto may still pick it: less memory).
    const bool traced =
        request.c2c.source != C2cMode::off && request.c2c.source != C2cMode::hardware &&
        request.c2c.source != C2cMode::perf && workload.info().probed && !request.simulate;
    check_memory(estimate_run_memory(request, traced), mem_available());
    if (request.simulate)
        validate_simulation(request);
    return ValidatedRequest(std::move(request));
}

std::vector<RunSummary> RunExecutor::execute(const ValidatedRequest& validated) {
    const RunRequest& request = validated.request();
    simulation_.reset();
    if (request.simulate)
        simulation_.emplace(*request.simulate);
    const auto plan = plan_runs(request);
    std::vector<RunSummary> summaries;
    for (std::size_t i = 0; i < plan.size() && !cancel_requested().load(); ++i)
        summaries.push_back(execute_one(request, plan[i], i, plan.size()));
    if (simulation_ && request.simulate->save_calibration)
        sim::save_calibrations(*request.simulate->save_calibration, simulation_->calibrations());
    return summaries;
}

RunSummary RunExecutor::execute_one(const RunRequest& request, const PlannedRun& plan,
                                    std::size_t index, std::size_t total) {
    const engine::Workload& workload = engine::find_workload(request.workload);
    const C2cChoice c2c = choose_c2c(request, workload.info(), pmu_);
    const engine::WorkloadRunConfig config = workload_config(request, plan, c2c.source);
    RunSummary summary{0, plan, 0, 0, 0, false, {}, {}};

    store::RunRecord record;
    record.machine_id = machine_id_;
    record.workload = request.workload;
    record.variant = plan.variant;
    record.params_json = params_json(request, config);
    record.threads = static_cast<int>(plan.threads);
    if (request.stop.duration)
        record.duration_s = std::chrono::duration<double>(*request.stop.duration).count();
    // Throughput while probes record is slower than the machine's: never pooled with measured.
    const store::Source source = simulation_            ? store::Source::simulated
                                 : config.trace.enabled ? store::Source::traced
                                                        : store::Source::measured;
    record.source = source;
    record.c2c_source = c2c.source;
    record.c2c_reason = c2c.reason;
    summary.run_id = db_.begin_run(record);

    const std::string label =
        fmt::format("{} {} x{} #{}", request.workload, plan.variant, plan.threads, summary.run_id);
    progress_.begin(index, total, label);
    try {
        ThreadCounters counters(plan.threads);
        std::optional<KernelLockCollector> kernel_locks;
        std::vector<engine::ThreadHooks> hooks{counters.hooks()};
        if (request.kernel_locks)
            hooks.push_back(kernel_locks.emplace(plan.threads).hooks());
        engine::WorkloadResult result;
        std::optional<SimulatedRun> simulated;
        std::unique_ptr<C2cCollector> collector;
        if (simulation_) {
            progress_.update(0.0, "calibrating");
            const sim::Calibration& calibration = simulation_->calibration_for(workload, config);
            progress_.update(0.1, "simulating");
            simulated = run_simulated(workload, config, simulation_->machine(), calibration);
            result = std::move(simulated->result);
            collector =
                simulated_c2c_collector(*simulated, c2c.source == store::C2cSource::simulated);
        } else {
            collector = c2c_collector(
                c2c.source, {request, pmu_, plan.threads, db_.path(), summary.run_id}, progress_);
            if (auto h = collector->hooks())
                hooks.push_back(std::move(*h));
            ProgressTicker ticker(progress_, request.stop);
            result = workload.run(config, chain_hooks(std::move(hooks)));
        }
        collector->stop(progress_);
        if (cancel_requested().load()) {
            // Stored as cancelled, without the analysis: the user asked to stop now.
            summary.error = "cancelled";
            store::RunOutcome cancelled;
            cancelled.status = store::RunStatus::cancelled;
            cancelled.ops = static_cast<std::int64_t>(result.ops);
            cancelled.duration_s = result.seconds;
            cancelled.note = "cancelled by a signal";
            db_.finish_run(summary.run_id, cancelled);
            progress_.end(false, "cancelled");
            return summary;
        }
        summary.ops = result.ops;
        summary.seconds = result.seconds;
        summary.ops_per_s =
            result.seconds > 0 ? static_cast<double>(result.ops) / result.seconds : 0;

        store::RunOutcome outcome = workload_outcome(result, source);
        // Host counters measured this thread, not the simulated machine: not stored as its.
        if (!simulated)
            for (const perf::CounterValue& c : counters.totals())
                outcome.metrics.push_back(store::Metric{
                    c.name, c.value, c.unit, c.value.has_value(), c.unavailable_reason, source,
                    c.value ? std::optional(c.scaled) : std::nullopt});

        std::vector<store::LockData> lock_tables;
        if (!result.locks.empty())
            lock_tables.push_back(engine_lock_data(result.locks));
        if (kernel_locks) {
            const auto reason = kernel_locks->unavailable_reason();
            const perf::KernelLockSummary waits = kernel_locks->summary();
            outcome.metrics.push_back(kernel_locks_metric(reason, waits));
            if (!reason)
                lock_tables.push_back(
                    store::LockData{store::LockSource::kernel, kernel_lock_report(waits), {}});
        }

        C2cOutcome tables = collector->finish(result, progress_);
        for (auto& m : tables.metrics)
            outcome.metrics.push_back(std::move(m));
        if (tables.note)
            outcome.note = std::move(tables.note);
        summary.trace_cap = tables.trace_cap;
        nlohmann::json resolved_params = result.resolved_params;
        for (auto& [name, value] : tables.params.items())
            resolved_params[name] = std::move(value);
        outcome.params_json = resolved_params.dump();
        db_.finish_run(summary.run_id, outcome, [&](store::RunWriter& writer) {
            if (tables.data)
                writer.write(*tables.data);
            if (simulated)
                writer.write(simulated->record);
            for (const auto& table : lock_tables)
                writer.write(table);
        });
        summary.ok = true;
        progress_.end(true, fmt::format("{:.0f} ops/s", summary.ops_per_s));
    } catch (const std::exception& e) {
        summary.error = support::error_text(e);
        // A trace written for a run that could not be stored is nobody's.
        remove_trace_of(db_.path(), summary.run_id);
        store::RunOutcome failed;
        failed.status = store::RunStatus::failed;
        failed.note = summary.error;
        db_.finish_run(summary.run_id, failed);
        progress_.end(false, summary.error);
    }
    return summary;
}

} // namespace hitmap::collector
