#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/reproduce/reproduce_plan.hpp"
#include "collector/reproduce/reproduction_format.hpp"
#include "collector/run/cancel.hpp"
#include "collector/run/run_executor.hpp"

#include <chrono>
#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

namespace {

struct ReproduceCliOptions {
    std::string investigation;
    bool simulate = false;
    bool quick = false;
    bool markdown = false;
    std::string progress = "auto";
    CommonOptions common;
};

struct Planned {
    const engine::WorkloadInfo* workload;
    std::vector<collector::PlannedRowRun> runs;
    std::vector<collector::ValidatedRequest> requests; // runs[i].request, validated
};

void reproduce(const ReproduceCliOptions& o) {
    const collector::ReproduceOptions options{o.simulate, o.quick};
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
    for (const auto& p : planned) {
        const engine::Investigation& inv = *p.workload->investigation;
        collector::ReproductionRuns ids = collector::empty_runs(inv);
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
                    ids[run.table][run.row][run.source] = s.run_id;
                else
                    command_exit_status() = 1;
                if (!quiet)
                    fmt::print(stderr, "reproduce [{}/{}] {}: run {} {} ({:.1f} s)\n", done, total,
                               report::escape_control(what), s.run_id,
                               s.ok ? "done" : "failed: " + s.error, seconds);
            }
        }
        results.push_back(collector::read_reproduction(db, inv, ids, options));
    }
    if (collector::cancel_requested().load()) {
        fmt::print(stderr, "hitmap-collect: cancelled; the runs done so far are stored\n");
        command_exit_status() = 130;
        return;
    }
    if (o.common.json) {
        fmt::print("{}\n", report::json_text(collector::reproductions_json(results)));
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
    auto* json =
        cmd->add_flag("--json", o->common.json, "Print JSON (schemas/reproduce.schema.json)");
    cmd->add_flag("--markdown", o->markdown, "Print Markdown")->excludes(json);
    cmd->add_option("--progress", o->progress, "A line per run on stderr (auto), or none")
        ->capture_default_str();
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->callback([o] { reproduce(*o); });
}

} // namespace hitmap::cli
