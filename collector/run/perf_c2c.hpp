#pragma once
// The perf c2c path of a run (`--c2c perf`): perf's own `perf c2c record` samples this process
// while the workload runs, `perf c2c report --stdio` reads what it recorded, and the report is
// imported (collector/perfc2c/) with the run's probed objects placed where they lived, so the
// lines they cover carry their fields' names. Where perf cannot record memory events the run
// refuses before anything is stored, with perf's own reason.
#include "collector/perf/unique_fd.hpp"
#include "collector/perfc2c/c2c_report.hpp"
#include "collector/perfc2c/imported_run.hpp"
#include "collector/run/child_process.hpp"
#include "collector/run/run_request.hpp"
#include "collector/run/scratch_dir.hpp"
#include "engine/workloads/workload.hpp"

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
// (exit 255)".
class PerfC2cFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// perf c2c report printed a text the importer cannot read: what() names the line and why.
class PerfC2cReportUnreadable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// perf's reason from what it printed on stderr: the line after "Error:", else a "failed: ..."
// line without its prefix, else the first line, leaving out perf record's progress lines
// ("[ perf record: ...", "Events disabled"). "no message" when it printed nothing.
std::string perf_failure_reason(std::string_view stderr_text);

// `perf c2c record` of `true`: whether this perf can record memory events here. Throws
// PerfToolMissing or PerfC2cFailed.
void probe_perf_c2c(const PerfC2cCommand& perf,
                    std::chrono::milliseconds timeout = std::chrono::seconds(60));

// A `perf c2c record` of this process covering what runs between the constructor and stop().
// perf starts with its events disabled (--delay=-1) and is enabled through its control fifo
// (--control fifo:CTL,ACK); the constructor returns once perf has acknowledged, so the first
// operations are sampled. perf c2c record hands options it does not know to perf record
// (torvalds/linux tools/perf/builtin-c2c.c, perf_c2c__record: parse_options with
// PARSE_OPT_KEEP_UNKNOWN, the rest of argv appended to the `perf record` argv).
class PerfC2cRecording {
public:
    // Throws PerfToolMissing, or PerfC2cFailed when perf exits or does not acknowledge in time.
    explicit PerfC2cRecording(const PerfC2cCommand& perf,
                              std::chrono::milliseconds start_timeout = std::chrono::seconds(30));
    ~PerfC2cRecording(); // a perf still running is killed; its files are removed
    PerfC2cRecording(const PerfC2cRecording&) = delete;
    PerfC2cRecording& operator=(const PerfC2cRecording&) = delete;

    // SIGINT, as perf record expects at the end, then waits for perf to write its data.
    // Throws PerfC2cFailed when perf had failed or does not finish in time.
    void stop(std::chrono::milliseconds timeout = std::chrono::minutes(2));

    // `perf c2c report --stdio` of what was recorded; nullopt when `cancel` was set while it
    // ran (perf is killed). Throws PerfC2cFailed when perf c2c report fails.
    std::optional<std::string> report(const std::atomic<bool>& cancel) const;

private:
    PerfC2cCommand perf_;
    ScratchDir dir_;
    perf::UniqueFd control_;
    perf::UniqueFd ack_;
    std::optional<ChildProcess> record_;
};

// The text `report()` returned, parsed. Throws PerfC2cReportUnreadable.
perfc2c::C2cReport read_perf_c2c_report(std::string_view text);

// The report's tables, metrics and code with `result`'s objects placed at their addresses:
// objects perf saw no shared line on stay, without lines; lines outside every object become
// objects named by their address. `objects` (--object specs) are placed after the workload's
// own. Counts are perf's samples, measured here.
perfc2c::ImportedC2c perf_c2c_tables(const perfc2c::C2cReport& report,
                                     const engine::WorkloadResult& result,
                                     const std::vector<std::string>& objects = {});

// The parser's notes (unknown sections and columns) as a run's note; nullopt when none.
std::optional<std::string> report_notes(const std::vector<perfc2c::Note>& notes);

} // namespace hitmap::collector
