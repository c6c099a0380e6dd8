#pragma once
// The perf c2c path of a run (`--c2c perf`): perf's own `perf c2c record` samples this process
// while the workload runs, `perf c2c report --stdio` reads what it recorded, and the report is
// imported (collector/perfc2c/) with the run's probed objects placed where they lived, so the
// lines they cover carry their fields' names. Where perf cannot record memory events the run
// refuses before anything is stored, with perf's own reason.
#include "collector/perfc2c/imported_run.hpp"
#include "collector/perfc2c/parsed_report.hpp"
#include "collector/run/perf_recording.hpp"
#include "engine/workloads/workload.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::collector {

// perf c2c report printed a text the importer cannot read: what() names the line and why.
class PerfC2cReportUnreadable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The text PerfRecording::report() returned, parsed. Throws PerfC2cReportUnreadable, whose
// message begins with `asker`.
perfc2c::C2cReport read_perf_c2c_report(std::string_view text,
                                        std::string_view asker = "--c2c perf");

// The report's tables, metrics and code with `placed` and then `objects` (--object specs, symbols
// from this machine's /proc/kallsyms) at their addresses: objects perf saw no shared line on
// stay, without lines; lines outside every object become objects named by their address. Counts
// are perf's samples, measured here.
perfc2c::ImportedC2c perf_c2c_tables(const perfc2c::C2cReport& report,
                                     std::vector<perfc2c::PlacedLayout> placed,
                                     const std::vector<std::string>& objects);

// The same with `result`'s objects placed first, and the run's threads and operations (every
// operation ran while perf recorded).
perfc2c::ImportedC2c perf_c2c_tables(const perfc2c::C2cReport& report,
                                     const engine::WorkloadResult& result,
                                     const std::vector<std::string>& objects = {});

// The parser's notes (unknown sections and columns) as a run's note; nullopt when none.
std::optional<std::string> report_notes(const std::vector<perfc2c::Note>& notes);

} // namespace hitmap::collector
