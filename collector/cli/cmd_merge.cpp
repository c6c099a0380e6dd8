#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/store/merge.hpp"
#include "collector/trace/trace_file.hpp"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

void add_merge_command(CLI::App& app) {
    struct Options {
        std::vector<std::string> inputs;
        std::string output;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "merge", "Add the runs of several databases (from several machines) to one: new run ids, "
                 "machines kept apart, trace files copied; merging again adds nothing");
    cmd->add_option("inputs", o->inputs, "Databases to read")->required()->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", o->output, "Database to add them to (created if missing)")
        ->required();
    cmd->add_flag("--json", o->json, "Print JSON: what each input added");
    cmd->callback([o] {
        store::Database out = store::Database::open(o->output);
        nlohmann::json added = nlohmann::json::array();
        for (const std::string& input : o->inputs) {
            const store::TraceFiles traces{
                [&](const std::string& name, std::int64_t run) -> std::optional<std::string> {
                    const auto to = collector::trace_path_for(out.path(), run);
                    try {
                        collector::copy_trace_file(collector::resolve_trace_path(input, name), to);
                    } catch (const collector::TraceFileMissing&) {
                        return std::nullopt;
                    }
                    return to.filename().string();
                },
                [&](const std::string& name) {
                    std::error_code ignored;
                    std::filesystem::remove(collector::resolve_trace_path(out.path(), name),
                                            ignored);
                }};
            const auto n = store::merge_into(out, input, traces);
            if (o->json) {
                added.push_back({{"input", input},
                                 {"added", n.added},
                                 {"already_present", n.already_present},
                                 {"traces_copied", n.traces},
                                 {"traces_missing", n.missing_traces},
                                 {"running", n.running}});
                continue;
            }
            fmt::print("{}: {} run{} added, {} already in {}", input, n.added,
                       n.added == 1 ? "" : "s", n.already_present, o->output);
            if (n.traces)
                fmt::print(", {} trace file{} copied", n.traces, n.traces == 1 ? "" : "s");
            if (n.missing_traces)
                fmt::print(", {} trace file{} missing from the input", n.missing_traces,
                           n.missing_traces == 1 ? "" : "s");
            if (n.running)
                fmt::print(", {} still running (not copied)", n.running);
            fmt::print("\n");
        }
        if (o->json)
            fmt::print("{}\n", report::json_text({{"output", o->output}, {"inputs", added}}));
    });
}

} // namespace hitmap::cli
