#pragma once
// `hitmap-collect record`: perf's own recorders, perf c2c record (memory samples) and perf lock
// record (lock contention), around a command or of the whole machine, both reports imported into
// one run: its cacheline tables with --object structs placed on them, and its lock table. Both
// recorders are probed first, so a machine where perf cannot record refuses with perf's reason
// before anything runs or is stored.
#include "collector/perfc2c/parsed_report.hpp"
#include "collector/run/child_process.hpp"
#include "collector/run/perf_recording.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hitmap::collector {

struct RecordRequest {
    PerfCommand perf{.program = "perf", .asker = "record"};
    std::vector<std::string> command; // empty: the whole machine
    // How long the whole machine is recorded; nullopt: until a signal (^C). A command is
    // recorded until it ends.
    std::optional<std::chrono::milliseconds> duration;
    std::vector<std::string> objects; // --object STRUCT@ADDR|SYMBOL[:LAYOUT]
};

// perf lock contention printed a text the lock importer cannot read: what() names the line.
class PerfLockReportUnreadable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The command is not a program exec would find (not in PATH, not an executable file).
class CommandNotRunnable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Refuses a request before anything runs: a command that cannot be run (CommandNotRunnable), an
// --object spec that does not parse (ObjectSpecError), a perf that is missing (PerfToolMissing) or
// cannot record memory events or lock contention here (PerfFailed, perf's reason on one line).
void validate_record(const RecordRequest& request);

struct RecordResult {
    std::int64_t run_id = 0;
    std::optional<ExitStatus> command;  // how the command ended; nullopt for the whole machine
    bool ended_by_signal = false;       // a signal ended the recording (and the command)
    double seconds = 0;                 // recorded, wall clock
    std::optional<double> shared_lines; // perf c2c's "Total Shared Cache Lines"
    std::uint64_t hitm = 0;
    std::size_t lock_classes = 0;
    std::vector<perfc2c::Note> notes; // what the c2c report's parser did not read
};

// Records as asked, reads both reports, then opens `db_path` and stores one run (this machine's,
// its figures measured). `cancel` set while recording ends the recording (a command gets
// SIGINT) and is cleared; set again while perf's reports are read, it abandons them: nullopt,
// nothing stored. Throws PerfFailed, PerfC2cReportUnreadable or PerfLockReportUnreadable
// before anything is stored.
std::optional<RecordResult> record(const RecordRequest& request,
                                   const std::filesystem::path& db_path, std::atomic<bool>& cancel);

} // namespace hitmap::collector
