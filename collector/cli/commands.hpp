#pragma once
// The hitmap-collect subcommands. Each add_* registers its options and a callback on the app;
// callbacks throw (UsageError, StoreError, WorkloadError, LayoutError, ...) and main() turns
// the exception into one line on stderr and a non-zero exit.
#include "collector/run/progress.hpp"
#include "collector/run/run_executor.hpp"
#include "collector/run/run_request.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"

#include <CLI/CLI.hpp>

namespace hitmap::cli {

// Options every data-reading command shares.
struct CommonOptions {
    std::string db = "hitmap.db";
    bool json = false;
};

void add_list_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_suite_command(CLI::App& app);
void add_show_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_predict_command(CLI::App& app);
void add_import_command(CLI::App& app);
void add_reproduce_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_doctor_command(CLI::App& app);
void add_layout_command(CLI::App& app);
void add_story_command(CLI::App& app);
void add_record_command(CLI::App& app);

// Shared by run and suite: validate, open the DB, execute, report failures and cancelling on
// stderr; the runs for the caller's table (run_table.hpp).
std::vector<collector::RunSummary> execute_runs(const collector::RunRequest& request,
                                                const std::string& db_path,
                                                collector::ProgressStyle style);

// One warning on stderr for the runs whose trace was capped (after the caller's tables).
void warn_trace_caps(const std::vector<collector::RunSummary>& runs);

// A stored run, or UsageError naming the database; its c2c data, or UsageError saying why not.
store::RunRecord require_run(store::Database& db, std::int64_t run_id);
store::C2cData require_c2c(store::Database& db, const store::RunRecord& run);

// Exit status of the last command that ran (a run may finish with failed runs stored).
int& command_exit_status();

} // namespace hitmap::cli
