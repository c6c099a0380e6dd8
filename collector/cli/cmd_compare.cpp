#include "collector/analysis/regression.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/regression_report.hpp"

#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

namespace {

store::Database open_existing(const std::string& path) {
    return store::Database::open(path, {.create_if_missing = false, .read_only = true});
}

analysis::RunFigures complete_run_figures(store::Database& db, std::int64_t id) {
    const store::RunRecord run = require_run(db, id);
    if (run.status != store::RunStatus::complete)
        throw UsageError(fmt::format("run {} is {}, not complete: nothing to compare", id,
                                     store::to_string(run.status)));
    return analysis::read_run_figures(db, run);
}

} // namespace

void add_compare_command(CLI::App& app) {
    struct Options {
        std::vector<std::int64_t> runs;
        std::string db = "hitmap.db", baseline, current, fail_on, format = "text", limit = "5";
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "compare",
        "Compare two runs, or every run of a current database with the matching runs of a "
        "baseline (same workload, variant, threads, parameters and source): ops/s, transfers "
        "per field and line, engine lock contentions and waits, with the change and the spread "
        "over repeats. With --fail-on, exit 1 on a regression past a threshold");
    auto* runs =
        cmd->add_option("runs", o->runs, "Two run ids of --db: before and after")->expected(2);
    auto* db =
        cmd->add_option("--db", o->db, "SQLite database of the two runs")->capture_default_str();
    auto* baseline = cmd->add_option("--baseline", o->baseline, "Baseline database")
                         ->excludes(runs)
                         ->excludes(db);
    cmd->add_option("--current", o->current, "Current database, compared with --baseline")
        ->needs(baseline);
    baseline->needs("--current");
    cmd->add_option("--fail-on", o->fail_on,
                    "Gates, e.g. 'ops:-5%,transfers:+20%,contentions:+20%' (kinds: ops, "
                    "transfers, contentions, waits or wait, hitm; hitm-share in points: "
                    "'hitm-share:+5pp'). Captures without an operation count (imports) are "
                    "compared as counted: hitm and hitm-share per line and field of a perf c2c "
                    "import, contentions and wait of a lock import. Figures below 1 per 1k ops "
                    "(waits: 1 ns/op; counts as captured: 10; shares: 0.1 %) on both sides are "
                    "not gated. Simulated figures are exact; measured ones with fewer than 3 "
                    "runs a side get a noise warning");
    auto* format =
        cmd->add_option("--format", o->format, "text, md (for a CI step summary) or json")
            ->check(CLI::IsMember({"text", "md", "json"}))
            ->capture_default_str();
    // Every data command's --json (README): here the same as --format json.
    cmd->add_flag_callback(
           "--json", [o] { o->format = "json"; }, "Print JSON: --format json")
        ->excludes(format);
    cmd->add_option("--limit", o->limit,
                    "Figures of each kind shown per group besides ops/s and the regressions "
                    "(0: all; json has all)")
        ->capture_default_str();
    cmd->callback([o] {
        const auto gates =
            o->fail_on.empty() ? std::vector<analysis::Gate>{} : analysis::parse_gates(o->fail_on);
        const auto limit = parse_count(o->limit, "--limit", 0, 1'000'000);
        analysis::Comparison comparison;
        if (!o->runs.empty()) {
            store::Database db = open_existing(o->db);
            const auto before = complete_run_figures(db, o->runs[0]);
            const auto after = complete_run_figures(db, o->runs[1]);
            comparison = analysis::compare_runs(
                {before}, {after},
                fmt::format("{}: run {} ({}) -> run {} ({})", before.key.workload, before.run_id,
                            before.key.variant, after.run_id, after.key.variant));
            if (o->format == "text") {
                for (const auto* r : {&before, &after})
                    fmt::print("run {}: {}\n", r->run_id,
                               report::escape_control(analysis::describe(r->key)));
                for (const auto& p : analysis::differing_params(before.key, after.key))
                    fmt::print("  {}\n", report::escape_control(p));
            }
        } else if (!o->baseline.empty()) {
            store::Database base = open_existing(o->baseline);
            store::Database current = open_existing(o->current);
            comparison = analysis::compare_matched(analysis::read_database_figures(base),
                                                   analysis::read_database_figures(current));
            if (comparison.changes.empty())
                throw UsageError(fmt::format(
                    "no complete run of {} matches one of {} (runs match by workload, variant, "
                    "threads, parameters and source)",
                    o->current, o->baseline));
        } else {
            throw UsageError("compare needs two run ids (of --db) or --baseline and --current");
        }
        const report::RegressionReport r{comparison, analysis::check_gates(comparison, gates),
                                         analysis::noisy_groups(comparison), limit};
        if (comparison.changes.empty())
            fmt::print(stderr,
                       "hitmap-collect: note: the runs share no figure to compare (no ops/s, no "
                       "cacheline or lock counts on both sides)\n");
        for (const auto& group : r.noisy)
            fmt::print(stderr,
                       "hitmap-collect: warning: fewer than 3 measured runs a side, changes may "
                       "be noise: {}\n",
                       report::escape_control(group));
        if (o->format == "json") {
            fmt::print("{}\n", report::json_text(report::regression_json(r)));
        } else if (o->format == "md") {
            fmt::print("{}", report::regression_markdown(r));
        } else {
            fmt::print("{}", report::regression_text(r));
            for (const auto& line : report::regression_lines(r))
                fmt::print("{}\n", report::escape_control(line));
        }
        if (!r.violations.empty())
            command_exit_status() = 1;
    });
}

} // namespace hitmap::cli
