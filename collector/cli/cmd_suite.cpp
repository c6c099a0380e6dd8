#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/cli/run_table.hpp"
#include "collector/report/output_text.hpp"
#include "collector/run/cancel.hpp"
#include "collector/run/suites.hpp"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

void add_suite_command(CLI::App& app) {
    struct Options {
        std::string name = "default";
        bool list = false;
        std::string progress = "auto";
        CommonOptions common;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("suite", "Run a named suite of workloads into the database");
    cmd->add_option("name", o->name, "Suite name")->capture_default_str();
    cmd->add_flag("--list", o->list, "List the suites and exit");
    cmd->add_option("--progress", o->progress, "Progress on stderr: auto, bar, json, none")
        ->capture_default_str();
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print the result tables as JSON");
    cmd->callback([o] {
        const auto suites = collector::builtin_suites();
        if (o->list) {
            for (const auto& s : suites)
                fmt::print("{:<10} {}\n", s.name, s.description);
            return;
        }
        const auto& suite = collector::find_suite(suites, o->name);
        const auto style = parse_progress_style(o->progress);
        // JSON: one document, each request's workload with its table.
        nlohmann::json tables = nlohmann::json::array();
        std::vector<collector::RunSummary> all;
        for (const auto& request : suite.requests) {
            if (collector::cancel_requested().load())
                break;
            if (!o->common.json)
                fmt::print("{}:\n", request.workload);
            const auto runs = execute_runs(request, o->common.db, style);
            if (o->common.json)
                tables.push_back({{"workload", request.workload}, {"runs", run_table_json(runs)}});
            else
                print_run_table(runs, false);
            all.insert(all.end(), runs.begin(), runs.end());
        }
        if (o->common.json)
            fmt::print("{}\n", report::json_text(tables));
        warn_trace_caps(all);
    });
}

} // namespace hitmap::cli
