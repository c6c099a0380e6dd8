// hitmap-collect: runs the engine's workloads under c2c-style and lock_stat-style analysis
// and stores everything in SQLite.
#include "collector/cli/commands.hpp"
#include "collector/plugins/plugin_loader.hpp"
#include "collector/report/output_text.hpp"
#include "collector/support/build_info.hpp"
#include "collector/support/error_text.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <fmt/format.h>

int main(int argc, char** argv) {
    CLI::App app{"hitmap-collect: find and explain lock and cacheline contention\n"
                 "(runs the memcg accounting engine's workloads and stores the analysis in SQLite)",
                 "hitmap-collect"};
    app.require_subcommand(1);
    app.set_version_flag("--version", hitmap::support::version_text("hitmap-collect"));
    // Loaded as soon as it is parsed, so the subcommand's workload, layouts and sites exist when
    // it runs, and before it opens a database: a refused plugin stores nothing.
    app.add_option_function<std::vector<std::string>>(
           "--plugin",
           [](const std::vector<std::string>& paths) {
               for (const std::string& path : paths)
                   hitmap::plugins::load_plugin(path);
           },
           "Load a workload plugin (a shared library built with HITMAP_PLUGIN); repeatable")
        ->trigger_on_parse()
        ->type_name("PATH");
    app.fallthrough(); // --plugin may also follow the subcommand
    hitmap::cli::add_list_command(app);
    hitmap::cli::add_run_command(app);
    hitmap::cli::add_suite_command(app);
    hitmap::cli::add_show_command(app);
    hitmap::cli::add_report_command(app);
    hitmap::cli::add_predict_command(app);
    hitmap::cli::add_import_command(app);
    hitmap::cli::add_record_command(app);
    hitmap::cli::add_reproduce_command(app);
    hitmap::cli::add_compare_command(app);
    hitmap::cli::add_merge_command(app);
    hitmap::cli::add_export_command(app);
    hitmap::cli::add_doctor_command(app);
    hitmap::cli::add_layout_command(app);
    hitmap::cli::add_story_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0)
            return app.exit(e);
        // One line, like every other error: the full usage is one --help away. Messages quote
        // names from outside (arguments, plugins, databases): escaped, they stay one line and
        // cannot drive the terminal.
        fmt::print(stderr, "hitmap-collect: error: {} (see --help)\n",
                   hitmap::report::escape_control(e.what()));
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "hitmap-collect: error: {}\n",
                   hitmap::report::escape_control(hitmap::support::error_text(e)));
        return 1;
    }
    return hitmap::cli::command_exit_status();
}
