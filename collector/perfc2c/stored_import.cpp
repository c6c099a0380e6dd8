#include "collector/perfc2c/stored_import.hpp"

#include "collector/store/machine_info.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/support/control_text.hpp"
#include "collector/support/unknown.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace hitmap::perfc2c {

StoredC2cImport store_c2c_import(store::Database& db, const std::string& file,
                                 const C2cReport& parsed, const std::vector<PlacedLayout>& placed,
                                 ImportedC2c& imported) {
    const std::string path = std::filesystem::absolute(file).lexically_normal().string();
    const std::string basename = std::filesystem::path(file).filename().string();
    const std::string what = fmt::format(
        "perf c2c report{} ({}, {}{})", parsed.stats_only ? " --stats" : "",
        to_string(parsed.layout), to_string(parsed.vendor), parsed.peer_mode ? ", peer mode" : "");
    nlohmann::json layouts = nlohmann::json::array();
    for (const auto& p : placed)
        layouts.push_back({{"struct", p.layout.type->name},
                           {"version", p.layout.version},
                           {"base", fmt::format("{:#x}", p.base)}});
    store::RunRecord run;
    run.workload = "import:perf-c2c";
    run.variant = basename;
    run.params_json = support::json_text(
        nlohmann::json{{"file", path},
                       {"format", "perf-c2c"},
                       {"layout", to_string(parsed.layout)},
                       {"vendor", to_string(parsed.vendor)},
                       {"peer_mode", parsed.peer_mode},
                       {"stats_only", parsed.stats_only},
                       {"events", parsed.details.events},
                       {"sort_on", support::json_or_null(parsed.details.sort_on)},
                       {"grouping", support::json_or_null(parsed.details.grouping)},
                       {"layouts", layouts},
                       {"code", std::move(imported.code)}},
        -1);
    run.source = store::Source::imported;
    run.threads.reset(); // the text does not say
    run.c2c_source = store::C2cSource::perf_c2c;
    run.c2c_reason = fmt::format("imported from {}: {}{}", basename, what,
                                 parsed.stats_only ? ", statistics only (no per-line table)" : "");
    store::RunOutcome outcome;
    outcome.note = fmt::format("imported from {}; machine and threads unknown", path);
    outcome.metrics = std::move(imported.metrics);

    run.machine_id = db.upsert_machine(store::imported_machine(), "{}");
    const std::int64_t id = db.insert_finished_run(run, outcome, [&](store::RunWriter& writer) {
        if (imported.data)
            writer.write(*imported.data);
    });
    return {id, path, basename, what};
}

} // namespace hitmap::perfc2c
