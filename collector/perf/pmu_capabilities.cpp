#include "collector/perf/pmu_capabilities.hpp"

#include "collector/perf/errors.hpp"
#include "collector/perf/event.hpp"
#include "collector/perf/perf_syscall.hpp"
#include "collector/perf/sysfs.hpp"
#include "collector/support/enum_names.hpp"
#include "collector/support/unknown.hpp"

#include <fmt/format.h>
#include <linux/perf_event.h>

namespace hitmap::perf {

namespace {

// User mode only: the least privileged request, and what CounterGroup falls back to.
std::optional<std::string> cycles_refusal() {
    const EventSpec cycles = *find_event("cycles");
    perf_event_attr attr{};
    attr.size = sizeof(attr);
    attr.type = cycles.type;
    attr.config = cycles.config;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    const OpenResult opened = open_event(attr, 0, -1, -1);
    if (opened.fd)
        return std::nullopt;
    return describe_errno(opened.error);
}

void detect_intel_mem_events(PmuCapabilities& caps, const SystemRoots& roots) {
    // Hybrid parts name the P-core PMU cpu_core; mem-loads lives there, not under cpu.
    for (const char* pmu : {"cpu", "cpu_core"}) {
        const auto events = pmu_directory(pmu, roots) / "events";
        if (!std::filesystem::exists(events / "mem-loads"))
            continue;
        caps.intel_mem_pmu = pmu;
        caps.intel_mem_loads = true;
        caps.intel_mem_stores = std::filesystem::exists(events / "mem-stores");
        caps.intel_mem_loads_aux = std::filesystem::exists(events / "mem-loads-aux");
        return;
    }
}

// drivers/perf/arm_spe_pmu.c (Linux 4.15+, read at torvalds/linux 05e4c88e) registers one PMU
// per SPE instance, named PMUNAME "arm_spe" + "_<index>".
std::optional<std::string> first_arm_spe_pmu(const SystemRoots& roots) {
    std::error_code ec;
    std::optional<std::string> first;
    for (const auto& entry :
         std::filesystem::directory_iterator(roots.sys / "bus/event_source/devices", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("arm_spe_") && (!first || name < *first))
            first = name;
    }
    return first;
}

} // namespace

std::string_view to_string(MemorySampling sampling) {
    static constexpr std::array<support::EnumName<MemorySampling>, 4> names{{
        {MemorySampling::intel_pebs, "intel_pebs"},
        {MemorySampling::amd_ibs, "amd_ibs"},
        {MemorySampling::arm_spe, "arm_spe"},
        {MemorySampling::none, "none"},
    }};
    return support::name_of(names, sampling);
}

MemorySampling PmuCapabilities::memory_sampling() const {
    if (intel_mem_loads)
        return MemorySampling::intel_pebs;
    if (ibs_op_type)
        return MemorySampling::amd_ibs;
    return arm_spe_pmu ? MemorySampling::arm_spe : MemorySampling::none;
}

nlohmann::json PmuCapabilities::to_json() const {
    return nlohmann::json{
        {"hardware_counters", hardware_counters},
        {"hardware_counters_reason", support::json_or_null(hardware_counters_reason)},
        {"memory_sampling", to_string(memory_sampling())},
        {"intel_mem_pmu", support::json_or_null(intel_mem_pmu)},
        {"intel_mem_loads", intel_mem_loads},
        {"intel_mem_stores", intel_mem_stores},
        {"intel_mem_loads_aux", intel_mem_loads_aux},
        {"ibs_op_type", support::json_or_null(ibs_op_type)},
        {"arm_spe_pmu", support::json_or_null(arm_spe_pmu)},
        {"perf_event_paranoid", support::json_or_null(perf_event_paranoid)},
        {"tracefs", support::json_or_null(tracefs)},
        {"lock_contention_tracepoints", lock_contention_tracepoints},
    };
}

std::string PmuCapabilities::summary() const {
    return fmt::format(
        "hardware counters: {}; precise memory sampling: {}; perf_event_paranoid: {}; tracefs: "
        "{}; lock contention tracepoints: {}",
        hardware_counters ? "yes" : "no (" + hardware_counters_reason.value_or("?") + ")",
        to_string(memory_sampling()),
        perf_event_paranoid ? std::to_string(*perf_event_paranoid) : "unreadable",
        tracefs.value_or("not mounted"), lock_contention_tracepoints ? "yes" : "no");
}

PmuCapabilities detect_pmu() {
    return detect_pmu(SystemRoots{}, cycles_refusal());
}

PmuCapabilities detect_pmu(const SystemRoots& roots, std::optional<std::string> refusal) {
    PmuCapabilities caps;
    caps.hardware_counters_reason = std::move(refusal);
    caps.hardware_counters = !caps.hardware_counters_reason;
    detect_intel_mem_events(caps, roots);
    caps.ibs_op_type = pmu_type("ibs_op", roots);
    caps.arm_spe_pmu = first_arm_spe_pmu(roots);
    caps.perf_event_paranoid = perf_event_paranoid(roots);
    if (const auto root = tracefs_root(roots))
        caps.tracefs = root->string();
    caps.lock_contention_tracepoints = tracepoint_id("lock", "contention_begin", roots) &&
                                       tracepoint_id("lock", "contention_end", roots);
    return caps;
}

std::optional<int> perf_event_paranoid(const SystemRoots& roots) {
    return read_number<int>(roots.proc / "sys/kernel/perf_event_paranoid");
}

std::optional<std::filesystem::path> tracefs_root(const SystemRoots& roots) {
    // Not libtracefs, which the lock tracer uses to find and mount tracefs (ensure_tracefs):
    // it reads the fixed /proc/mounts, so it cannot be pointed at a fake tree (its one override,
    // tracefs_set_tracing_dir, is process-wide and skips the search being tested);
    // tracefs_tracing_dir() mounts tracefs when it is absent, and doctor reports the machine as
    // it finds it; and the side-effect-free tracefs_tracing_dir_is_mounted(false, ...) of
    // libtracefs 1.6.4 leaks the path it returns on every call (LeakSanitizer: 20 bytes a call),
    // which the ASan test tree (detect_leaks=1) would report through detect_pmu().
    // Both paths exist as empty directories when tracefs is not mounted.
    for (const char* root : {"kernel/tracing", "kernel/debug/tracing"}) {
        std::error_code ec;
        if (std::filesystem::is_directory(roots.sys / root / "events", ec))
            return roots.sys / root;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> tracepoint_id(std::string_view category, std::string_view name,
                                           const SystemRoots& roots) {
    const auto root = tracefs_root(roots);
    if (!root)
        return std::nullopt;
    return read_number<std::uint64_t>(*root / "events" / category / name / "id");
}

} // namespace hitmap::perf
