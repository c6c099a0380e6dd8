#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/store/database.hpp"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

namespace {

std::string rate_text(const std::optional<double>& ops_per_s) {
    return ops_per_s ? fmt::format("{:.0f}", *ops_per_s) : "-";
}

} // namespace

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
            for (const auto& r : runs) {
                nlohmann::json row{{"id", r.id},
                                   {"workload", r.workload},
                                   {"variant", r.variant},
                                   {"threads", r.threads},
                                   {"duration_s", r.duration_s},
                                   {"status", store::to_string(r.status)},
                                   {"started_at", r.started_at},
                                   {"params", nlohmann::json::parse(r.params_json)}};
                row["ops"] = r.ops ? nlohmann::json(*r.ops) : nlohmann::json();
                row["ops_per_s"] = r.ops_per_s ? nlohmann::json(*r.ops_per_s) : nlohmann::json();
                row["c2c_source"] = r.c2c_source ? nlohmann::json(*r.c2c_source) : nlohmann::json();
                out.push_back(row);
            }
            fmt::print("{}\n", report::json_text(out));
            return;
        }
        if (runs.empty()) {
            fmt::print("no runs in {} (collect some with `hitmap-collect run` or `suite`)\n",
                       o->common.db);
            return;
        }
        fmt::print("{:>5}  {:<20} {:<12} {:>7} {:>8} {:>14} {:>14} {:<9} {:<9} {}\n", "id",
                   "workload", "variant", "threads", "seconds", "ops", "ops/s", "c2c", "status",
                   "started");
        for (const auto& r : runs)
            fmt::print("{:>5}  {:<20} {:<12} {:>7} {:>8.2f} {:>14} {:>14} {:<9} {:<9} {}\n", r.id,
                       report::escape_control(r.workload), report::escape_control(r.variant),
                       r.threads, r.duration_s, r.ops ? std::to_string(*r.ops) : "-",
                       rate_text(r.ops_per_s), r.c2c_source.value_or("-"),
                       store::to_string(r.status), r.started_at);
    });
}

} // namespace hitmap::cli
