#include "collector/cli/commands.hpp"
#include "collector/cli/layout_spec.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/report/unknown.hpp"
#include "collector/store/database.hpp"
#include "collector/store/layout_table.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

namespace {

// "page_counter@v6.1#0123456789ab, mem_cgroup@v6.1#...", or "–" for a run without cacheline
// data (versions may hold spaces: "v6.0 with page_counter v6.1").
std::string layouts_text(const std::vector<store::RunLayout>& layouts) {
    std::string out;
    for (std::size_t i = 0; i < layouts.size(); ++i)
        if (i == 0 || layouts[i].layout != layouts[i - 1].layout) // one, whatever its origins
            out += (out.empty() ? "" : ", ") + store::layout_label(layouts[i].layout);
    return out.empty() ? std::string(report::unknown_text) : out;
}

nlohmann::json layouts_json(const std::vector<store::RunLayout>& layouts) {
    nlohmann::json out = nlohmann::json::array();
    for (const store::RunLayout& l : layouts)
        out.push_back({{"struct", l.layout.struct_name},
                       {"version", l.layout.version},
                       {"hash", l.layout.hash},
                       {"origin", report::json_or_null(l.origin)}});
    return out;
}

} // namespace

void add_show_command(CLI::App& app) {
    struct Options {
        std::optional<std::string> workload, variant, layout;
        CommonOptions common;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("show", "List the runs stored in the database");
    cmd->add_option("--workload", o->workload, "Only runs of this workload");
    cmd->add_option("--variant", o->variant, "Only runs of this variant");
    cmd->add_option("--layout", o->layout,
                    "Only runs with objects under this layout: HASH (4 or more digits of one "
                    "shown after '#'), STRUCT=VERSION|FILE.json|btf|btf:FILE (that shape, or "
                    "stored under that version name), STRUCT=run:ID or STRUCT=hash:HASH");
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print JSON");
    cmd->callback([o] {
        store::Database db =
            store::Database::open(o->common.db, {.create_if_missing = false, .read_only = true});
        store::RunFilter filter;
        filter.workload = o->workload;
        filter.variant = o->variant;
        if (o->layout)
            filter.layout_ids = selected_layouts(db, *o->layout);
        const auto runs = db.runs(filter);
        std::map<std::int64_t, std::vector<store::RunLayout>> layouts;
        for (store::RunLayout& l : store::run_layouts(db))
            layouts[l.run_id].push_back(std::move(l));
        if (o->common.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& r : runs) {
                nlohmann::json run = report::run_json(r);
                run["layouts"] = layouts_json(layouts[r.id]);
                out.push_back(std::move(run));
            }
            fmt::print("{}\n", report::json_text(out));
            return;
        }
        if (runs.empty() && o->layout) {
            fmt::print("no runs{} in {} recorded objects under layout {}\n",
                       o->workload || o->variant ? " of that workload and variant" : "",
                       o->common.db, report::escape_control(*o->layout));
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
        fmt::print("{:>5}  {:<20} {:<12} {:<9} {:>7} {:>8} {:>14} {:>14} {:<9} {:<9} {:<24} {}\n",
                   "id", "workload", "variant", "source", "threads", "seconds", "ops", "ops/s",
                   "c2c", "status", "started", "layouts");
        for (const auto& r : runs)
            fmt::print(
                "{:>5}  {:<20} {:<12} {:<9} {:>7} {:>8} {:>14} {:>14} {:<9} {:<9} {:<24} {}\n",
                r.id, report::escape_control(r.workload), report::escape_control(r.variant),
                store::to_string(r.source), report::text_or_unknown(r.threads, "{}"),
                report::text_or_unknown(r.duration_s, "{:.3g}"),
                report::text_or_unknown(r.ops, "{}"),
                report::text_or_unknown(r.ops_per_s, "{:.0f}"),
                store::c2c_source_text(r.c2c_source).value_or(std::string(report::unknown_text)),
                store::to_string(r.status), r.started_at,
                report::escape_control(layouts_text(layouts[r.id])));
    });
}

} // namespace hitmap::cli
