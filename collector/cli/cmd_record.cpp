// `record [-a] [--duration D] [-- CMD ...]`: perf c2c record and perf lock record around a
// command or of the whole machine, both reports in one run (collector/run/perf_record.hpp).
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"
#include "collector/run/cancel.hpp"
#include "collector/run/perf_record.hpp"

#include <csignal>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

namespace {

struct RecordOptions {
    bool system_wide = false;
    std::optional<std::string> duration;
    std::vector<std::string> command;
    std::vector<std::string> objects;
    std::string perf = "perf";
    CommonOptions common;
};

collector::RecordRequest make_request(const RecordOptions& o) {
    if (o.system_wide == !o.command.empty())
        throw UsageError("record needs -a (the whole machine) or a command after --, not both");
    if (o.duration && !o.system_wide)
        throw UsageError("--duration bounds a whole-machine recording (-a); a command is "
                         "recorded until it ends");
    collector::RecordRequest r;
    r.perf.program = o.perf;
    r.command = o.command;
    if (o.duration)
        r.duration =
            std::chrono::duration_cast<std::chrono::milliseconds>(parse_duration(*o.duration));
    r.objects = o.objects;
    return r;
}

// As a shell reports the command: its exit code, or 128 + the signal that killed it.
int exit_status_of(const collector::ExitStatus& s) {
    return s.code ? *s.code : 128 + s.signal.value_or(0);
}

void print_result(const collector::RecordResult& r, const RecordOptions& o) {
    if (o.common.json) {
        nlohmann::json notes = nlohmann::json::array();
        for (const perfc2c::Note& n : r.notes)
            notes.push_back(
                {{"line", n.line ? nlohmann::json(n.line) : nlohmann::json()}, {"text", n.text}});
        nlohmann::json command;
        if (r.command)
            command = {{"exit_code", report::json_or_null(r.command->code)},
                       {"signal", report::json_or_null(r.command->signal)}};
        fmt::print("{}\n", report::json_text(nlohmann::json{
                               {"db", o.common.db},
                               {"run", r.run_id},
                               {"seconds", r.seconds},
                               {"ended_by_signal", r.ended_by_signal},
                               {"command", command},
                               {"shared_lines", report::json_or_null(r.shared_lines)},
                               {"hitm", r.hitm},
                               {"lock_classes", r.lock_classes},
                               {"notes", notes}}));
        return;
    }
    fmt::print("recorded run {} into {}: {:.2f} s of {}", r.run_id,
               report::escape_control(o.common.db), r.seconds,
               r.command ? "the command" : "the whole machine");
    if (r.command)
        fmt::print(" ({})", collector::describe(*r.command));
    fmt::print("; perf c2c: {} shared lines, HITM {}; perf lock: {} contended lock{}\n",
               report::text_or_unknown(r.shared_lines, "{}"), r.hitm, r.lock_classes,
               r.lock_classes == 1 ? "" : "s");
}

void record_command(const RecordOptions& o) {
    const collector::RecordRequest request = make_request(o);
    // Before anything runs or a database is opened: a refusal stores nothing.
    collector::validate_record(request);
    const collector::CancelOnSignals cancel_on_signals;
    const auto result = collector::record(request, o.common.db, collector::cancel_requested());
    if (!result) {
        fmt::print(stderr, "hitmap-collect: cancelled while perf's reports were read; nothing "
                           "stored\n");
        command_exit_status() = 128 + SIGINT;
        return;
    }
    for (const perfc2c::Note& n : result->notes)
        fmt::print(stderr, "hitmap-collect: note: perf c2c report{}: {}\n",
                   n.line ? fmt::format(":{}", n.line) : "", report::escape_control(n.text));
    print_result(*result, o);
    if (result->command)
        command_exit_status() = exit_status_of(*result->command);
}

} // namespace

void add_record_command(CLI::App& app) {
    auto o = std::make_shared<RecordOptions>();
    auto* cmd = app.add_subcommand(
        "record",
        "perf c2c record and perf lock record (lock contention) around a command (-- CMD ...) "
        "or of the whole machine (-a), both reports stored in one run: cacheline tables with "
        "the --object structs placed, and the lock table. Refused with perf's reason where perf "
        "cannot record memory events or lock contention (a VM without a vPMU). Exits with the "
        "command's status");
    cmd->add_flag("-a,--all-cpus", o->system_wide, "Record the whole machine");
    cmd->add_option("--duration", o->duration, "With -a: how long, e.g. 10s (default: until ^C)");
    cmd->add_option("--object", o->objects,
                    "STRUCT@ADDR[:LAYOUT] or STRUCT@SYMBOL[:LAYOUT] (this machine's "
                    "/proc/kallsyms): a struct of any BTF placed on perf c2c's lines; LAYOUT as "
                    "for `run --layout`, default btf (repeatable)")
        // One value each: a list would take the `--` that begins the command as its end.
        ->allow_extra_args(false);
    cmd->add_option("--perf", o->perf, "The perf program: a name in PATH or a path")
        ->capture_default_str();
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print the result as JSON");
    cmd->add_option("command", o->command,
                    "The command to record, after -- (its stdin is /dev/null; it is recorded "
                    "until it ends, its children too)");
    cmd->callback([o] { record_command(*o); });
}

} // namespace hitmap::cli
