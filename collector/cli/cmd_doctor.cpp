#include "collector/cli/commands.hpp"
#include "collector/perf/machine_capabilities.hpp"
#include "collector/report/output_text.hpp"

#include <fmt/format.h>
#include <memory>

namespace hitmap::cli {

// A report, not a check: what is missing is printed with its reason and the exit status stays 0;
// only a failure of the command itself (an exception) is non-zero.
void add_doctor_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "doctor", "Print what this machine can do for hitmap (PMU, precise memory sampling, lock "
                  "tracepoints, perf_event_paranoid, perf, BTF, TSC, CPUs, cache line, cgroups), "
                  "with the reason for what it cannot");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print JSON (schemas/doctor.schema.json) instead of text");
    cmd->callback([json] {
        const perf::MachineCapabilities machine = perf::detect_machine();
        if (*json)
            fmt::print("{}\n", report::json_text(machine.to_json()));
        else
            fmt::print("{}", machine.to_text());
    });
}

} // namespace hitmap::cli
