#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/reproduce/reproduce_plan.hpp"
#include "collector/reproduce/reproduction_format.hpp"
#include "collector/reproduce/scorecard.hpp"
#include "collector/run/cancel.hpp"
#include "collector/run/run_executor.hpp"
#include "collector/sim/errors.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

namespace {

struct ReproduceCliOptions {
    std::string investigation;
    bool simulate = false;
    bool quick = false;
    bool calibrate_here = false;
    std::optional<std::string> calibrations;
    bool calibrate_missing = false;
    bool scorecard = false;
    bool markdown = false;
    std::string progress = "auto";
    CommonOptions common;
};

struct Planned {
    const engine::WorkloadInfo* workload;
    std::vector<collector::PlannedRowRun> runs;
    std::vector<collector::ValidatedRequest> requests; // runs[i].request, validated
};

// The options as the library takes them: where calibrations come from, and how the tables
// name it (a relative name, so the tables read the same in every checkout).
collector::ReproduceOptions library_options(const ReproduceCliOptions& o) {
    if (o.calibrate_here && (o.calibrations || o.calibrate_missing))
        throw UsageError("--calibrate-here measures every calibration: it takes no --calibration "
                         "or --calibrate-missing");
    if ((o.calibrate_here || o.calibrations || o.calibrate_missing || o.scorecard) && !o.simulate)
        throw UsageError("--calibrate-here, --calibration, --calibrate-missing and --scorecard "
                         "apply to --simulate");
    collector::ReproduceOptions options;
    options.simulate = o.simulate;
    options.quick = o.quick;
    options.calibrate_missing = o.calibrate_missing;
    options.measured_repeats = o.quick ? 2 : 3;
    if (o.calibrate_here) {
        options.calibrations_label = "measured on this host now (--calibrate-here)";
    } else if (o.calibrations) {
        options.calibrations = *o.calibrations;
        options.calibrations_label = "from " + *o.calibrations;
    } else {
        options.calibrations = collector::committed_calibrations();
        options.calibrations_label = "committed (data/calibration/reproduce/)";
    }
    // --calibrate-missing starts a folder where there is none; anything else reads one.
    std::error_code ec;
    if (o.simulate && o.calibrate_missing)
        std::filesystem::create_directories(options.calibrations, ec);
    if (o.simulate && !options.calibrations.empty() &&
        !std::filesystem::is_directory(options.calibrations))
        throw sim::CalibrationError(
            fmt::format("{}: not a folder of calibrations", options.calibrations.string()));
    return options;
}

void reproduce(const ReproduceCliOptions& o) {
    const collector::ReproduceOptions options = library_options(o);
    // Every request is validated before the database opens: bad input writes nothing.
    std::vector<Planned> planned;
    if (o.investigation == "all")
        for (const engine::WorkloadInfo* w : collector::investigations())
            planned.push_back({w, collector::plan_reproduction(*w, options), {}});
    else {
        const engine::WorkloadInfo& w = collector::find_investigation(o.investigation);
        planned.push_back({&w, collector::plan_reproduction(w, options), {}});
    }
    std::size_t total = 0;
    for (auto& p : planned) {
        for (const auto& run : p.runs)
            p.requests.push_back(collector::RunExecutor::validate(run.request));
        total += p.runs.size();
    }

    store::Database db = store::Database::open(o.common.db, {});
    const bool quiet = parse_progress_style(o.progress) == collector::ProgressStyle::none;
    collector::Progress silent(collector::ProgressStyle::none);
    collector::RunExecutor executor(db, silent);
    const collector::CancelOnSignals cancel_on_signals;
    std::vector<collector::Reproduction> results;
    std::size_t done = 0;
    for (auto& p : planned) {
        const engine::Investigation& inv = *p.workload->investigation;
        collector::ReproductionRuns ids = collector::empty_runs(inv);
        std::optional<collector::NativeScale> native_scale;
        for (std::size_t i = 0; i < p.runs.size(); ++i) {
            const collector::PlannedRowRun& run = p.runs[i];
            if (collector::cancel_requested().load())
                break;
            const std::string what =
                fmt::format("{}: {}, {}", inv.id, inv.tables[run.table].rows[run.row].label,
                            collector::to_string(run.source));
            const auto start = std::chrono::steady_clock::now();
            const auto summaries = executor.execute(p.requests[i]);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            ++done;
            for (const auto& s : summaries) {
                if (s.ok)
                    ids[run.table][run.row][run.source].push_back(s.run_id);
                else
                    command_exit_status() = 1;
                if (!quiet)
                    fmt::print(stderr, "reproduce [{}/{}] {}: run {} {} ({:.1f} s)\n", done, total,
                               report::escape_control(what), s.run_id,
                               s.ok ? "done" : "failed: " + s.error, seconds);
            }
            // The anchor row at this host's speed sets the scale of the simulated runs after it.
            if (run.source == collector::RowSource::unscaled)
                if ((native_scale = collector::read_native_scale(db, inv, ids)))
                    for (std::size_t j = i + 1; j < p.runs.size(); ++j)
                        if (p.runs[j].source == collector::RowSource::simulated) {
                            collector::RunRequest scaled = p.requests[j].request();
                            scaled.simulate->native_scale = native_scale->factor;
                            p.requests[j] = collector::RunExecutor::validate(std::move(scaled));
                        }
        }
        collector::Reproduction r = collector::read_reproduction(db, inv, ids, options);
        r.calibrations = options.calibrations_label;
        r.native_scale = native_scale;
        results.push_back(std::move(r));
    }
    if (collector::cancel_requested().load()) {
        fmt::print(stderr, "hitmap-collect: cancelled; the runs done so far are stored\n");
        command_exit_status() = 130;
        return;
    }
    if (o.common.json) {
        nlohmann::json doc = collector::reproductions_json(results);
        if (o.scorecard)
            doc["scorecard"] = collector::scorecard_json(collector::score(results));
        fmt::print("{}\n", report::json_text(doc));
        return;
    }
    if (o.scorecard) {
        fmt::print("{}", o.markdown
                             ? collector::format_scorecard_markdown(collector::score(results))
                             : collector::format_scorecard_text(collector::score(results)));
        return;
    }
    for (std::size_t i = 0; i < results.size(); ++i)
        fmt::print("{}{}", i ? "\n" : "",
                   o.markdown ? collector::format_reproduction_markdown(results[i])
                              : collector::format_reproduction_text(results[i]));
}

} // namespace

void add_reproduce_command(CLI::App& app) {
    auto o = std::make_shared<ReproduceCliOptions>();
    auto* cmd = app.add_subcommand(
        "reproduce", "Run what an investigation needs and print its tables in the seed's shape, "
                     "the seed's figures beside ours");
    std::string ids;
    for (const engine::WorkloadInfo* w : collector::investigations())
        ids += w->investigation->id + " | ";
    cmd->add_option("investigation", o->investigation, ids + "all")->required();
    cmd->add_flag("--simulate", o->simulate,
                  "Also run each table's rows on the seed's simulated machine");
    cmd->add_flag("--quick", o->quick,
                  "Smaller sizes (stated in each table) and shorter calibrations");
    cmd->add_flag("--calibrate-here", o->calibrate_here,
                  "Measure the simulated rows' calibrations on this host instead of using the "
                  "committed ones (every table says so)");
    cmd->add_option("--calibration", o->calibrations,
                    "Folder of calibrations (WORKLOAD.json each) instead of the committed "
                    "data/calibration/reproduce/");
    cmd->add_flag("--calibrate-missing", o->calibrate_missing,
                  "Measure here the calibrations the folder lacks and add them to it");
    cmd->add_flag("--scorecard", o->scorecard,
                  "Print the fidelity scorecard: every seed figure a table compares, ours beside "
                  "it, predicted or anchored");
    auto* json =
        cmd->add_flag("--json", o->common.json, "Print JSON (schemas/reproduce.schema.json)");
    cmd->add_flag("--markdown", o->markdown, "Print Markdown")->excludes(json);
    cmd->add_option("--progress", o->progress, "A line per run on stderr (auto), or none")
        ->capture_default_str();
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->callback([o] { reproduce(*o); });
}

} // namespace hitmap::cli
