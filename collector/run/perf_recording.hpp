#pragma once
// perf's own recorders as child processes: `perf c2c record` (memory samples) and `perf lock
// record` (lock contention tracepoints), of this process, another one or the whole machine,
// started with their events disabled and enabled through a control fifo so that what follows is
// recorded; stopped with SIGINT; their data read back with perf's report commands. perf's
// refusals become one line with perf's own reason.
#include "collector/run/child_process.hpp"
#include "collector/run/run_request.hpp"
#include "collector/run/scratch_dir.hpp"
#include "collector/support/unique_fd.hpp"

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::collector {

// The perf program cannot be started (not in PATH, not executable).
class PerfToolMissing : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// perf ran and failed, or did not do its part in time. what() is one line ending with perf's
// reason and how it exited: "--c2c perf: perf c2c record failed: memory events not supported
// (exit 255)" (the asker first).
class PerfFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// perf's reason from what it printed on stderr: the line after "Error:", else a "failed: ..."
// line without its prefix, else the first line, leaving out perf record's progress lines
// ("[ perf record: ...", "Events disabled"). "no message" when it printed nothing.
std::string perf_failure_reason(std::string_view stderr_text);

// Which recorder: `perf c2c record` (read back by `perf c2c report --stdio`) or `perf lock
// record` (read back by `perf lock contention`: on a kernel without CONFIG_LOCKDEP perf lock
// record takes the lock:contention_begin/end tracepoints only, include/trace/events/lock.h of
// v6.1, and `perf lock report`'s "acquired" would count contended acquisitions alone; the
// kernel's own test, tools/perf/tests/shell/lock_contention.sh, reads it so too).
enum class PerfRecorder { c2c, lock };

// "c2c" or "lock": the perf subcommand.
std::string_view to_string(PerfRecorder recorder);

// `perf <recorder> record` of `true`: whether this perf can record that here. Throws
// PerfToolMissing or PerfFailed.
void probe_perf(const PerfCommand& perf, PerfRecorder recorder,
                std::chrono::milliseconds timeout = std::chrono::seconds(60));

// What a recording covers: perf record's target options.
std::vector<std::string> this_process_target(); // --pid of the collector
std::vector<std::string> process_target(pid_t pid);
std::vector<std::string> system_wide_target(); // -a

// A `perf <recorder> record` covering what happens between the constructor and stop(). perf
// starts with its events disabled (--delay=-1) and is enabled through its control fifo
// (--control fifo:CTL,ACK); the constructor returns once perf has acknowledged, so what follows
// is recorded. perf c2c record and perf lock record hand options they do not know to perf
// record (torvalds/linux v6.1 tools/perf/builtin-c2c.c perf_c2c__record and
// tools/perf/builtin-lock.c __cmd_record: parse_options with PARSE_OPT_KEEP_UNKNOWN, the rest
// of argv appended to the `perf record` argv).
class PerfRecording {
public:
    // Throws PerfToolMissing, or PerfFailed when perf exits or does not acknowledge in time.
    PerfRecording(const PerfCommand& perf, PerfRecorder recorder, std::vector<std::string> target,
                  std::chrono::milliseconds start_timeout = std::chrono::seconds(30));
    ~PerfRecording(); // a perf still running is killed; its files are removed
    PerfRecording(const PerfRecording&) = delete;
    PerfRecording& operator=(const PerfRecording&) = delete;

    // SIGINT, as perf record expects at the end, then waits for perf to write its data (a perf
    // of a process that has ended may have finished on its own). Throws PerfFailed when perf
    // had failed or does not finish in time.
    void stop(std::chrono::milliseconds timeout = std::chrono::minutes(2));

    // perf's report of what was recorded (`perf c2c report --stdio`, `perf lock contention`);
    // nullopt when `cancel` was set while it ran (perf is killed). Throws PerfFailed when the
    // report fails.
    std::optional<std::string> report(const std::atomic<bool>& cancel) const;

private:
    PerfCommand perf_;
    PerfRecorder recorder_;
    ScratchDir dir_;
    support::UniqueFd control_;
    support::UniqueFd ack_;
    std::optional<ChildProcess> record_;
};

// `perf c2c record` of this process, for `--c2c perf`.
class PerfC2cRecording : public PerfRecording {
public:
    explicit PerfC2cRecording(const PerfCommand& perf,
                              std::chrono::milliseconds start_timeout = std::chrono::seconds(30))
        : PerfRecording(perf, PerfRecorder::c2c, this_process_target(), start_timeout) {}
};

} // namespace hitmap::collector
