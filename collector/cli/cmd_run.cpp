#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/cli/run_table.hpp"
#include "collector/run/cancel.hpp"
#include "collector/run/placed_objects.hpp"
#include "collector/run/run_executor.hpp"
#include "collector/store/database.hpp"
#include "engine/workloads/workload.hpp"

#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

namespace {

struct RunOptions {
    std::string workload;
    std::string variants = "all";
    std::string threads;
    std::optional<std::string> duration; // default 1s; 5ms of virtual time under --simulate
    std::optional<std::string> iterations;
    std::string repeat = "1";
    std::vector<std::string> params;
    std::vector<std::string> layouts;
    std::vector<std::string> objects;
    std::string c2c = "auto";
    std::string trace_mb = "64";
    std::string trace_window;
    std::string trace_clock = "operation";
    bool drop_trace = false;
    bool kernel_locks = false;
    std::string model_cpus = "recorded";
    std::string progress = "auto";
    std::optional<std::string> simulate;
    std::optional<std::string> calibration;
    std::optional<std::string> save_calibration;
    std::string calibration_ops = "200000";
    bool calibrate_missing = false;
    CommonOptions common;
};

collector::RunRequest make_request(const RunOptions& o) {
    collector::RunRequest r;
    const engine::Workload& workload = engine::find_workload(o.workload);
    r.workload = o.workload;
    if (o.variants == "all")
        for (const auto& v : workload.info().variants)
            r.variants.push_back(v.name);
    else
        r.variants = split_list(o.variants, "variant");
    r.threads = o.threads.empty()
                    ? std::vector<unsigned>{static_cast<unsigned>(engine::allowed_cpus().size())}
                    : parse_thread_counts(o.threads);
    if (o.iterations && o.duration)
        throw UsageError("--iterations and --duration both say when a run stops: give one");
    // A run of no operation measures nothing; 10^12 per thread is days of work.
    if (o.iterations)
        r.stop.iterations = parse_count(*o.iterations, "--iterations", 1, 1'000'000'000'000);
    else
        r.stop.duration = parse_duration(o.duration.value_or(o.simulate ? "5ms" : "1s"));
    r.repeat = static_cast<unsigned>(parse_count(o.repeat, "--repeat", 1, 1000));
    r.params = parse_params(o.params);
    r.layouts = parse_layouts(o.layouts);
    if (const auto mode = collector::c2c_mode_named(o.c2c))
        r.c2c.source = *mode;
    else
        throw UsageError(
            fmt::format("unknown --c2c '{}' (auto, software, hardware, perf, off)", o.c2c));
    if (!o.objects.empty() && r.c2c.source != collector::C2cMode::hardware &&
        r.c2c.source != collector::C2cMode::perf)
        throw UsageError("--object places structs on a capture's data addresses: it needs "
                         "--c2c hardware or --c2c perf");
    for (const std::string& spec : o.objects)
        collector::parse_object_spec(spec); // refused before anything runs
    r.c2c.objects = o.objects;
    r.c2c.trace_bytes_per_thread = parse_megabytes(o.trace_mb);
    r.c2c.window = parse_trace_window(o.trace_window);
    r.c2c.keep_trace = !o.drop_trace;
    if (o.trace_clock == "operation")
        r.c2c.clock = engine::TraceClock::operation;
    else if (o.trace_clock == "access")
        r.c2c.clock = engine::TraceClock::access;
    else
        throw UsageError(
            fmt::format("unknown --trace-clock '{}' (operation, access)", o.trace_clock));
    r.kernel_locks = o.kernel_locks;
    if (const auto cpus = c2c::model_cpus_named(o.model_cpus))
        r.c2c.model_cpus = *cpus;
    else
        throw UsageError(fmt::format("unknown --model-cpus '{}' (recorded, thread)", o.model_cpus));
    if (o.simulate) {
        if (o.kernel_locks)
            throw UsageError(
                "--kernel-locks traces this machine's kernel; a simulated run has none");
        r.simulate = collector::SimulateOptions{
            *o.simulate, std::nullopt, std::nullopt,
            parse_count(o.calibration_ops, "--calibration-ops", 1000, 100'000'000),
            o.calibrate_missing};
        if (o.calibrate_missing && !o.calibration)
            throw UsageError("--calibrate-missing adds to a --calibration FILE");
        if (o.calibration)
            r.simulate->calibration_file = *o.calibration;
        if (o.save_calibration)
            r.simulate->save_calibration = *o.save_calibration;
        if (o.threads.empty()) // all of the simulated machine's CPUs is rarely meant
            throw UsageError("--simulate needs --threads (e.g. 1,2,4,8)");
    } else if (o.calibration || o.save_calibration || o.calibrate_missing) {
        throw UsageError(
            "--calibration, --save-calibration and --calibrate-missing apply to --simulate runs");
    }
    return r;
}

} // namespace

std::vector<collector::RunSummary> execute_runs(const collector::RunRequest& request,
                                                const std::string& db_path,
                                                collector::ProgressStyle style) {
    // Everything is validated before the database is opened: bad input writes nothing.
    const collector::ValidatedRequest validated = collector::RunExecutor::validate(request);
    store::Database db = store::Database::open(db_path, {});
    collector::Progress progress(style);
    collector::RunExecutor executor(db, progress);
    const collector::CancelOnSignals cancel_on_signals;
    const auto summaries = executor.execute(validated);
    progress.finish();
    for (const auto& s : summaries) {
        if (!s.ok)
            command_exit_status() = 1;
    }
    if (collector::cancel_requested().load()) {
        fmt::print(stderr,
                   "hitmap-collect: cancelled; the interrupted run is stored as cancelled\n");
        command_exit_status() = 130; // as a shell reports an interrupted command
    }
    return summaries;
}

void warn_trace_caps(const std::vector<collector::RunSummary>& runs) {
    std::vector<std::pair<std::int64_t, collector::TraceCap>> caps;
    for (const auto& s : runs)
        if (s.trace_cap)
            caps.emplace_back(s.run_id, *s.trace_cap);
    if (!caps.empty())
        fmt::print(stderr, "hitmap-collect: warning: {}\n", collector::trace_caps_warning(caps));
}

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto* cmd =
        app.add_subcommand("run", "Run a workload's variants and store one run per repetition");
    cmd->add_option("workload", o->workload, "Workload name (see `hitmap-collect list`)")
        ->required();
    cmd->add_option("--variant", o->variants, "Comma-separated variants, or 'all'")
        ->capture_default_str();
    cmd->add_option("--threads", o->threads,
                    "Comma-separated thread counts (default: all allowed CPUs)");
    cmd->add_option("--duration", o->duration,
                    "Length of each run, e.g. 500ms, 1s, 2m (default 1s; under --simulate "
                    "virtual time, default 5ms)");
    cmd->add_option("--iterations", o->iterations, "Operations per thread instead of a duration");
    cmd->add_option("--repeat", o->repeat, "Repetitions of each combination")
        ->capture_default_str();
    cmd->add_option("--param", o->params, "Workload parameter NAME=VALUE (repeatable)");
    cmd->add_option("--layout", o->layouts,
                    "Layout override STRUCT=VERSION|FILE.json|btf[:FILE] (repeatable; btf: the "
                    "running kernel)");
    cmd->add_option(
           "--c2c", o->c2c,
           "Cacheline analysis: auto (hardware where the PMU samples memory, else software; "
           "never perf), software (probe traces replayed), hardware (precise memory sampling), "
           "perf (perf c2c record around the workload, its report imported), off")
        ->capture_default_str();
    cmd->add_option("--object", o->objects,
                    "STRUCT@ADDR[:LAYOUT] or STRUCT@SYMBOL[:LAYOUT] (this machine's "
                    "/proc/kallsyms): a struct of any BTF placed on the --c2c hardware or perf "
                    "capture beside the workload's objects; LAYOUT as for --layout, default btf "
                    "(repeatable)");
    cmd->add_option("--trace-mb", o->trace_mb, "Probe trace cap per thread (MiB, or 1G)")
        ->capture_default_str();
    cmd->add_option("--trace-window", o->trace_window,
                    "Duty-cycled tracing ON/PERIOD, e.g. 200us/2ms");
    cmd->add_option("--trace-clock", o->trace_clock,
                    "Record timestamps: one rdtsc per operation (records spread over it) or "
                    "per access (exact, slower)")
        ->capture_default_str();
    cmd->add_flag(
        "--drop-trace", o->drop_trace,
        "Software c2c: store the cacheline tables but not the probe trace beside the "
        "database (about 10 MB per thread and traced second); `predict` cannot replay the run");
    cmd->add_flag("--kernel-locks", o->kernel_locks,
                  "Trace the kernel's lock waits (lock:contention_begin/end) of the run's "
                  "threads; needs tracefs and root or CAP_PERFMON, else the report says why");
    cmd->add_option("--model-cpus", o->model_cpus,
                    "Coherence model caches: recorded CPUs or one per thread")
        ->capture_default_str();
    cmd->add_option("--simulate", o->simulate,
                    "Run the workers as virtual CPUs of a simulated machine: a built-in (see "
                    "`list machines`), host, or a JSON description");
    cmd->add_option("--calibration", o->calibration,
                    "Calibration file for --simulate (default: measured here per variant); "
                    "used only for runs of the workload, variant and parameters it was "
                    "measured at");
    cmd->add_flag("--calibrate-missing", o->calibrate_missing,
                  "Measure here what the --calibration file lacks and add it to the file");
    cmd->add_option("--save-calibration", o->save_calibration,
                    "Write the calibrations a --simulate run used to FILE, for --calibration");
    cmd->add_option("--calibration-ops", o->calibration_ops,
                    "Operations per calibration run when measuring one")
        ->capture_default_str();
    cmd->add_option("--progress", o->progress, "Progress on stderr: auto, bar, json, none")
        ->capture_default_str();
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print the result table as JSON");
    cmd->callback([o] {
        const auto runs =
            execute_runs(make_request(*o), o->common.db, parse_progress_style(o->progress));
        print_run_table(runs, o->common.json);
        warn_trace_caps(runs);
    });
}

} // namespace hitmap::cli
