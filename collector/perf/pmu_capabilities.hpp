#pragma once
// What this machine's perf can do: hardware counters, which precise memory sampling facility
// (Intel PEBS mem-loads/mem-stores, AMD IBS op, Arm SPE), the paranoid level and the tracefs
// tracepoints for kernel lock waits. Detected once per run and stored with the machine.
#include "collector/perf/sysfs.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace hitmap::perf {

enum class MemorySampling { none, intel_pebs, amd_ibs, arm_spe };

std::string_view to_string(MemorySampling sampling);

struct PmuCapabilities {
    bool hardware_counters = false; // a user-mode cycles counter opened for this thread
    std::optional<std::string> hardware_counters_reason; // why not, when not

    std::optional<std::string> intel_mem_pmu; // "cpu" or "cpu_core" (hybrid) with mem-loads
    bool intel_mem_loads = false;
    bool intel_mem_stores = false;
    bool intel_mem_loads_aux = false; // Sapphire Rapids / Alder Lake P-core grouping quirk
    std::optional<std::uint32_t> ibs_op_type;
    std::optional<std::string> arm_spe_pmu; // "arm_spe_0": the first SPE PMU

    std::optional<int> perf_event_paranoid;
    std::optional<std::string> tracefs;       // mount point with an events/ directory
    bool lock_contention_tracepoints = false; // lock:contention_begin/end ids readable

    // The facility MemorySampler uses: Intel when mem-loads exists, else AMD IBS, else Arm SPE
    // (read from its AUX area).
    MemorySampling memory_sampling() const;

    nlohmann::json to_json() const;
    std::string summary() const; // one line for humans
};

// This machine: its files, and whether a user-mode cycles counter opens.
PmuCapabilities detect_pmu();
// The same reading of the files under `roots`; `cycles_refusal` is why a cycles counter did
// not open (nullopt: it did), the one fact no file holds.
PmuCapabilities detect_pmu(const SystemRoots& roots, std::optional<std::string> cycles_refusal);

// <proc>/sys/kernel/perf_event_paranoid, if readable.
std::optional<int> perf_event_paranoid(const SystemRoots& roots = {});

// The first mounted tracefs among <sys>/kernel/tracing and <sys>/kernel/debug/tracing; never
// mounts one (ensure_tracefs() in tracepoint_format.hpp does, through libtracefs).
std::optional<std::filesystem::path> tracefs_root(const SystemRoots& roots = {});

// tracefs events/<category>/<name>/id: the config of a PERF_TYPE_TRACEPOINT event.
std::optional<std::uint64_t> tracepoint_id(std::string_view category, std::string_view name,
                                           const SystemRoots& roots = {});

} // namespace hitmap::perf
