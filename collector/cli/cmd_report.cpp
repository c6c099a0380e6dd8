#include "collector/analysis/field_access.hpp"
#include "collector/analysis/kernel_locks_metric.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/cli/lock_report.hpp"
#include "collector/report/access_report.hpp"
#include "collector/report/cacheline_report.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/report_origin.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"

#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

store::RunRecord require_run(store::Database& db, std::int64_t run_id) {
    auto run = db.run(run_id);
    if (!run)
        throw UsageError(fmt::format("run {} is not in {}", run_id, db.path().string()));
    return *run;
}

store::C2cData require_c2c(store::Database& db, const store::RunRecord& run) {
    if (run.status != store::RunStatus::complete)
        throw UsageError(fmt::format("run {} is {}, not complete: it has no cacheline data", run.id,
                                     store::to_string(run.status)));
    auto data = store::read_c2c(db, run.id);
    if (!data)
        throw UsageError(
            fmt::format("run {} has no cacheline data: {}", run.id, analysis::no_c2c_reason(run)));
    return std::move(*data);
}

namespace {

// A text report's first line: when, where and by which build, as every report's header says.
void print_origin() {
    fmt::print("# {}\n", report::origin_sentence(analysis::this_origin()));
}

void report_locks(store::Database& db, const store::RunRecord& run, bool json) {
    const bool has_tables = !store::read_lock_table_headers(db, run.id).empty();
    const auto kernel = analysis::find_kernel_locks_metric(db.metrics(run.id));
    if (!has_tables && !kernel)
        throw UsageError(fmt::format("run {} has no lock statistics ({} {} stored none)", run.id,
                                     run.workload, run.variant));
    const std::optional<std::string> kernel_absent =
        kernel ? analysis::kernel_locks_unavailable(*kernel) : std::nullopt;
    if (json) {
        nlohmann::json j = {{"run", report::run_json(run)}};
        if (kernel)
            j["kernel_locks"] = {
                {"requested", true},
                {"available", kernel->available},
                {"reason", kernel_absent ? nlohmann::json(*kernel_absent) : nlohmann::json()}};
        std::fflush(stdout);
        write_lock_report_json(stdout, db, j, run.id);
    } else {
        print_origin();
        fmt::print("# {}\n", report::run_title(run));
        if (kernel_absent)
            fmt::print("# kernel lock waits (--kernel-locks): not collected: {}\n",
                       report::escape_control(*kernel_absent));
        std::fflush(stdout);
        write_lock_report_text(stdout, db, run.id);
    }
}

} // namespace

void add_report_command(CLI::App& app) {
    struct Options {
        std::int64_t run_id = 0;
        std::string lines = "10";
        bool all_lines = false;
        bool locks = false;
        bool access = false;
        CommonOptions common;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "report", "Print a run's cacheline report (perf c2c shape, with field names) or, with "
                  "--locks, its lock statistics");
    cmd->add_option("run", o->run_id, "Run id (see `hitmap-collect show`)")->required();
    cmd->add_option("--lines", o->lines, "Lines detailed in the Pareto section")
        ->capture_default_str();
    auto* all_lines =
        cmd->add_flag("--all-lines", o->all_lines, "Also list lines without any transfer");
    cmd->add_flag("--locks", o->locks,
                  "Print the run's lock statistics (lock_stat 0.4 text) instead of cachelines")
        ->excludes(all_lines);
    cmd->add_flag("--access", o->access,
                  "Also print each field's reads and writes (read-only, read-mostly, ...), the "
                  "written fields that share a line or the code writing them, and the read-only "
                  "fields on written lines; from any source (trace, PMU samples, a capture)");
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print JSON");
    cmd->callback([o] {
        store::Database db =
            store::Database::open(o->common.db, {.create_if_missing = false, .read_only = true});
        const store::RunRecord run = require_run(db, o->run_id);
        if (o->locks)
            return report_locks(db, run, o->common.json);
        const store::C2cData data = require_c2c(db, run);
        const auto drilldown = analysis::line_drilldowns(data, run.params_json, db.metrics(run.id));
        const report::C2cReportOptions options{
            static_cast<std::size_t>(parse_count(o->lines, "--lines", 1, 1'000'000)), !o->all_lines,
            &drilldown};
        if (o->common.json) {
            nlohmann::json j = report::c2c_report_json(data, options);
            j["run"] = report::run_json(run);
            j["provenance"] = report::provenance_json(run, data);
            j["metrics"] = report::metrics_json(db.metrics(run.id));
            if (o->access)
                j["access"] = report::field_access_json(analysis::field_access(data, drilldown));
            fmt::print("{}\n", report::json_text(j));
        } else {
            print_origin();
            fmt::print("{}", report::format_c2c_report(data,
                                                       report::run_title(run) + "\n" +
                                                           report::provenance_text(run, data),
                                                       options));
            if (o->access)
                fmt::print("{}",
                           report::format_field_access(analysis::field_access(data, drilldown)));
        }
    });
}

} // namespace hitmap::cli
