#include "collector/run/perf_record.hpp"

#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/run/perf_c2c.hpp"
#include "collector/run/placed_objects.hpp"
#include "collector/run/scratch_dir.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/store/machine_info.hpp"
#include "collector/store/run_writer.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace hitmap::collector {

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// How long a command is given to end after the SIGINT a signal to the collector forwards, before
// it is killed: the recording's end must not hang on a command that ignores SIGINT.
constexpr milliseconds kCommandGrace = std::chrono::seconds(10);

// The command, started but held at a gate until both recorders follow its pid: a shell that
// waits for a line on a fifo, then execs the command (same pid, so perf record --pid keeps
// following it, and its children by inheritance). The command writes to the collector's own
// stdout and stderr; its stdin is /dev/null.
class HeldCommand {
public:
    explicit HeldCommand(const std::vector<std::string>& command)
        : dir_("hitmap-record") {
        const std::filesystem::path gate = dir_ / "gate";
        if (::mkfifo(gate.c_str(), 0600) != 0)
            throw std::system_error(errno, std::generic_category(), "mkfifo " + gate.string());
        // Read-write: the shell's open for reading does not wait, its read waits for release().
        gate_ = support::UniqueFd(::open(gate.c_str(), O_RDWR | O_CLOEXEC));
        if (!gate_)
            throw std::system_error(errno, std::generic_category(), "open " + gate.string());
        std::vector<std::string> argv{"/bin/sh", "-c", R"(read -r go <"$0" && exec "$@")",
                                      gate.string()};
        argv.insert(argv.end(), command.begin(), command.end());
        child_.emplace(argv, std::nullopt, std::nullopt);
    }

    pid_t pid() const { return child_->pid(); }
    ChildProcess& child() { return *child_; }

    void release() {
        constexpr std::string_view go = "go\n";
        if (::write(gate_.get(), go.data(), go.size()) != static_cast<ssize_t>(go.size()))
            throw std::system_error(errno, std::generic_category(), "write the command's gate");
    }

private:
    ScratchDir dir_;
    support::UniqueFd gate_;
    std::optional<ChildProcess> child_;
};

// Waits for the command to end. `cancel` sends SIGINT once to the command's process group, as
// ^C at a terminal would (it leads a group of its own, so a ^C reached only the collector); after
// the grace the group is killed. The command has not been reaped while this waits, so its pid
// still names its group.
ExitStatus wait_for_command(ChildProcess& command, std::atomic<bool>& cancel,
                            bool& ended_by_signal) {
    std::optional<Clock::time_point> interrupted;
    for (;;) {
        if (const auto status = command.wait_for(milliseconds(100)))
            return *status;
        if (cancel.load() && !interrupted) {
            ended_by_signal = true;
            ::kill(-command.pid(), SIGINT);
            interrupted = Clock::now();
        }
        if (interrupted && Clock::now() - *interrupted > kCommandGrace)
            ::kill(-command.pid(), SIGKILL);
    }
}

// The whole machine for `duration`, or until `cancel`.
void wait_for_end(const std::optional<milliseconds>& duration, const std::atomic<bool>& cancel,
                  bool& ended_by_signal) {
    const auto start = Clock::now();
    while (!duration || Clock::now() - start < *duration) {
        if (cancel.load()) {
            ended_by_signal = true;
            return;
        }
        ::usleep(20'000); // a signal interrupts the sleep
    }
}

std::vector<locks::LockStatReport> read_lock_report(std::string_view text, std::string_view asker) {
    try {
        return locks::parse_lock_text(text);
    } catch (const locks::LockParseError& e) {
        throw PerfLockReportUnreadable(fmt::format("{}: perf lock contention's text, line {}: {}",
                                                   asker, e.line(), e.reason()));
    } catch (const std::runtime_error& e) { // no table, not UTF-8
        throw PerfLockReportUnreadable(
            fmt::format("{}: perf lock contention printed no lock table: {}", asker, e.what()));
    }
}

// Whether exec would find `program` as the held shell's `exec` looks it up: a path as given, a
// bare name in PATH (POSIX exec: an empty PATH entry is the current folder).
bool runnable(const std::string& program) {
    const auto executable = [](const std::filesystem::path& p) {
        std::error_code e;
        return std::filesystem::is_regular_file(p, e) && ::access(p.c_str(), X_OK) == 0;
    };
    if (program.find('/') != std::string::npos)
        return executable(program);
    const char* path = std::getenv("PATH");
    const std::string_view dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t at = 0; at <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', at), dirs.size());
        const std::string_view dir = dirs.substr(at, end - at);
        if (executable(std::filesystem::path(dir.empty() ? "." : dir) / program))
            return true;
        at = end + 1;
    }
    return false;
}

std::string command_text(const std::vector<std::string>& command) {
    return fmt::format("{}", fmt::join(command, " "));
}

// perf's two reports of what was recorded.
struct PerfTexts {
    std::string c2c;
    std::string lock;
};

// Both recorders around the command or of the whole machine, then their reports; nullopt when
// `cancel` abandoned the reports. How the command ended and how long it all took go to `result`.
std::optional<PerfTexts> capture(const RecordRequest& request, std::atomic<bool>& cancel,
                                 RecordResult& result) {
    std::optional<HeldCommand> command;
    if (!request.command.empty())
        command.emplace(request.command);
    const std::vector<std::string> target =
        command ? process_target(command->pid()) : system_wide_target();
    PerfRecording c2c(request.perf, PerfRecorder::c2c, target);
    PerfRecording lock(request.perf, PerfRecorder::lock, target);
    const auto start = Clock::now();
    if (command) {
        command->release();
        result.command = wait_for_command(command->child(), cancel, result.ended_by_signal);
    } else {
        wait_for_end(request.duration, cancel, result.ended_by_signal);
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    // The signal that ended the recording is spent: a second one abandons the reports.
    cancel.store(false);
    c2c.stop();
    lock.stop();
    std::optional<std::string> c2c_text = c2c.report(cancel);
    if (!c2c_text)
        return std::nullopt;
    std::optional<std::string> lock_text = lock.report(cancel);
    if (!lock_text)
        return std::nullopt;
    return PerfTexts{std::move(*c2c_text), std::move(*lock_text)};
}

} // namespace

void validate_record(const RecordRequest& request) {
    if (!request.command.empty() && !runnable(request.command.front()))
        throw CommandNotRunnable(fmt::format(
            "{}: cannot run {}: {}", request.perf.asker, request.command.front(),
            request.command.front().find('/') == std::string::npos ? "not found in PATH"
                                                                   : "not an executable file"));
    for (const std::string& spec : request.objects)
        parse_object_spec(spec);
    probe_perf(request.perf, PerfRecorder::c2c);
    probe_perf(request.perf, PerfRecorder::lock);
}

std::optional<RecordResult> record(const RecordRequest& request,
                                   const std::filesystem::path& db_path,
                                   std::atomic<bool>& cancel) {
    RecordResult result;
    const std::optional<PerfTexts> texts = capture(request, cancel, result);
    if (!texts)
        return std::nullopt;
    const bool command = result.command.has_value();
    const perfc2c::C2cReport c2c_report = read_perf_c2c_report(texts->c2c, request.perf.asker);
    std::vector<locks::LockStatReport> lock_tables =
        read_lock_report(texts->lock, request.perf.asker);
    perfc2c::ImportedC2c imported =
        perf_c2c_tables(c2c_report, std::vector<perfc2c::PlacedLayout>{}, request.objects);
    result.shared_lines = c2c_report.shared_stat("Total Shared Cache Lines");
    result.hitm = c2c_report.total_hitm();
    result.notes = imported.notes;
    for (const locks::LockStatReport& t : lock_tables)
        result.lock_classes += t.classes.size();

    const std::string what =
        command ? fmt::format("`{}`", command_text(request.command)) : "the whole machine";
    const std::string ended =
        command ? fmt::format("the command ended with {}{}", describe(*result.command),
                              result.ended_by_signal ? " after a signal" : "")
                : (result.ended_by_signal ? "ended by a signal" : "for --duration");
    store::RunRecord run;
    run.workload = "record:perf";
    run.variant = command ? command_text(request.command) : "system-wide";
    nlohmann::json params{
        {"command", command ? nlohmann::json(request.command) : nlohmann::json()},
        {"system_wide", !command},
        {"duration_s",
         request.duration ? nlohmann::json(std::chrono::duration<double>(*request.duration).count())
                          : nlohmann::json()},
        {"objects", request.objects},
        {"command_status",
         result.command ? nlohmann::json(describe(*result.command)) : nlohmann::json()},
        {"lock_format", lock_tables.empty()
                            ? nlohmann::json()
                            : nlohmann::json(locks::to_string(lock_tables.front().format))},
        {"events", c2c_report.details.events},
        {"code", std::move(imported.code)}};
    run.params_json = params.dump();
    run.source = store::Source::measured;
    run.threads.reset(); // perf does not say how many threads the command ran
    run.c2c_source = store::C2cSource::perf;
    run.c2c_reason = fmt::format("{}: perf c2c record of {}", request.perf.asker, what);
    store::RunOutcome outcome;
    outcome.duration_s = result.seconds;
    outcome.metrics = std::move(imported.metrics);
    const std::optional<std::string> notes = report_notes(result.notes);
    outcome.note = fmt::format("perf c2c record and perf lock record of {}, {:.2f} s; {}{}{}", what,
                               result.seconds, ended, notes ? "; " : "", notes.value_or(""));

    store::Database db = store::Database::open(db_path);
    run.machine_id =
        db.upsert_machine(store::detect_machine(), perf::detect_pmu().to_json().dump());
    result.run_id = db.insert_finished_run(run, outcome, [&](store::RunWriter& writer) {
        if (imported.data)
            writer.write(*imported.data);
        for (locks::LockStatReport& t : lock_tables)
            writer.write(store::LockData{store::LockSource::perf_lock, std::move(t), {}});
    });
    return result;
}

} // namespace hitmap::collector
