#pragma once
// What this machine can do for hitmap (`hitmap-collect doctor`): the PMU and its precise memory
// sampling, the lock tracepoints, perf_event_paranoid, the perf tool, kernel BTF, an invariant
// TSC, CPUs, the cache line and cgroups. Every fact the files hold is read under SystemRoots, so
// each branch is tested on fake trees; what no file holds (a refused cycles counter, what
// `perf version` printed) is passed in. Unknown stays nullopt, never 0.
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/perf/sysfs.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::perf {

// What running a tool printed (stdout and stderr together) and how it exited; nullopt status:
// it could not be started at all.
struct ToolOutput {
    std::optional<int> exit_status;
    std::string output;
};

enum class CgroupVersion { none, v1, v2, hybrid };

std::string_view to_string(CgroupVersion version);

struct CgroupFacts {
    CgroupVersion version = CgroupVersion::none;
    bool memory_controller = false; // a v1 memory hierarchy, or memory in the v2 controllers
    // This process's memory cgroup directory (v1 memory hierarchy, else v2), where a run
    // would create its child cgroups, and whether this process may write there.
    std::optional<std::string> memory_cgroup;
    std::optional<bool> writable;
};

struct MachineCapabilities {
    PmuCapabilities pmu; // hardware counters, memory sampling, paranoid level, tracefs

    std::optional<std::string> perf_version; // "6.1.187"
    std::optional<std::string> perf_reason;  // why there is no usable perf tool

    std::optional<std::string> kernel_btf; // the vmlinux BTF file, when the kernel exports it

    // constant_tsc and nonstop_tsc; nullopt when /proc/cpuinfo has no x86 flags line.
    std::optional<bool> invariant_tsc;
    std::vector<std::string> missing_tsc_flags;

    std::optional<unsigned> cpus_online;
    std::optional<unsigned> cpus_allowed; // this process's affinity (Cpus_allowed_list)
    std::optional<unsigned> cache_line_size;

    CgroupFacts cgroup;

    nlohmann::json to_json() const; // schemas/doctor.schema.json
    std::string to_text() const;    // one aligned line per capability
};

// One line of the report: the shape both renderings (and the GUI, through the JSON) share.
struct CapabilityLine {
    std::string key;   // stable JSON key, e.g. "hardware_pmu"
    std::string label; // e.g. "hardware PMU"
    bool available = false;
    std::string detail; // what was found, or why not
};

std::vector<CapabilityLine> capability_lines(const MachineCapabilities& machine);

// This machine: its files, a user-mode cycles counter, `perf version` from PATH.
MachineCapabilities detect_machine();
MachineCapabilities detect_machine(const SystemRoots& roots,
                                   std::optional<std::string> cycles_refusal,
                                   const ToolOutput& perf_version);

// perf_event_paranoid's level in words: what an unprivileged user may measure.
std::string paranoid_meaning(int level);

// "0-3,8,10-11" (the kernel's cpulist format) → 7; nullopt if malformed.
std::optional<unsigned> count_cpu_list(std::string_view list);

} // namespace hitmap::perf
