#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/report/unknown.hpp"
#include "collector/store/database.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

void add_show_command(CLI::App& app) {
    struct Options {
        std::optional<std::string> workload, variant;
        CommonOptions common;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("show", "List the runs stored in the database");
    cmd->add_option("--workload", o->workload, "Only runs of this workload");
    cmd->add_option("--variant", o->variant, "Only runs of this variant");
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print JSON");
    cmd->callback([o] {
        store::Database db =
            store::Database::open(o->common.db, {.create_if_missing = false, .read_only = true});
        store::RunFilter filter;
        filter.workload = o->workload;
        filter.variant = o->variant;
        const auto runs = db.runs(filter);
        if (o->common.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& r : runs)
                out.push_back(report::run_json(r));
            fmt::print("{}\n", report::json_text(out));
            return;
        }
        if (runs.empty()) {
            if (o->workload) {
                const auto& all = engine::all_workloads();
                const bool known = std::any_of(all.begin(), all.end(), [&](const auto* w) {
                    return w->info().name == *o->workload;
                });
                const bool imported = o->workload->starts_with("import:");
                fmt::print(
                    "no runs of workload '{}'{} in {}{}\n", report::escape_control(*o->workload),
                    o->variant ? fmt::format(" variant '{}'", report::escape_control(*o->variant))
                               : "",
                    o->common.db,
                    known || imported ? ""
                                      : " (and no such workload is registered: see "
                                        "`hitmap-collect list`)");
                return;
            }
            fmt::print("no runs in {} (collect some with `hitmap-collect run` or `suite`)\n",
                       o->common.db);
            return;
        }
        // ops/s of different sources are never comparable: the source column says which.
        fmt::print("{:>5}  {:<20} {:<12} {:<9} {:>7} {:>8} {:>14} {:>14} {:<9} {:<9} {}\n", "id",
                   "workload", "variant", "source", "threads", "seconds", "ops", "ops/s", "c2c",
                   "status", "started");
        for (const auto& r : runs)
            fmt::print("{:>5}  {:<20} {:<12} {:<9} {:>7} {:>8} {:>14} {:>14} {:<9} {:<9} {}\n",
                       r.id, report::escape_control(r.workload), report::escape_control(r.variant),
                       store::to_string(r.source), report::text_or_unknown(r.threads, "{}"),
                       report::text_or_unknown(r.duration_s, "{:.3g}"),
                       report::text_or_unknown(r.ops, "{}"),
                       report::text_or_unknown(r.ops_per_s, "{:.0f}"),
                       r.c2c_source.value_or(std::string(report::unknown_text)),
                       store::to_string(r.status), r.started_at);
    });
}

} // namespace hitmap::cli
