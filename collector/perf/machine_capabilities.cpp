#include "collector/perf/machine_capabilities.hpp"

#include "collector/perf/perf_tool.hpp"
#include "collector/support/enum_names.hpp"
#include "collector/support/text_file.hpp"
#include "collector/support/unknown.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace hitmap::perf {

namespace {

// The value of the first "<key><sep>value" line of a /proc file, trimmed.
std::optional<std::string> field_value(const std::string& text, std::string_view key,
                                       char separator) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with(key))
            continue;
        const auto colon = line.find(separator, key.size());
        // Only whitespace may sit between the key and its separator ("flags\t\t: ...").
        if (colon == std::string::npos || line.find_first_not_of(" \t", key.size()) != colon)
            continue;
        const auto begin = line.find_first_not_of(" \t", colon + 1);
        return begin == std::string::npos ? std::string() : line.substr(begin);
    }
    return std::nullopt;
}

std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string word; in >> word;)
        out.push_back(word);
    return out;
}

// A mount point or cgroup path as the kernel wrote it (absolute, on the real machine) under the
// fake roots a test gave; the machine's own roots leave it as is.
std::filesystem::path under_roots(const std::string& absolute, const SystemRoots& roots) {
    for (const auto& [prefix, root] : {std::pair{std::string_view("/sys"), &roots.sys},
                                       std::pair{std::string_view("/proc"), &roots.proc}}) {
        if (absolute == prefix)
            return *root;
        if (absolute.starts_with(prefix) && absolute[prefix.size()] == '/')
            return *root / absolute.substr(prefix.size() + 1);
    }
    return absolute;
}

// Which version "perf version" printed ("perf version 6.1.187"), or why there is none. The
// status is the shell's: 127 is "command not found". Debian's /usr/bin/perf is a wrapper that
// exits non-zero with a warning when no perf matches the running kernel.
void read_perf_version(const ToolOutput& run, MachineCapabilities& machine) {
    const auto first_line = run.output.substr(0, run.output.find('\n'));
    if (!run.exit_status) {
        machine.perf_reason = "could not start a shell to run `perf version`";
    } else if (*run.exit_status == 127) {
        machine.perf_reason = perf_not_found("perf");
    } else if (*run.exit_status != 0) {
        machine.perf_reason =
            fmt::format("`perf version` exited with status {}: {}", *run.exit_status, first_line);
    } else if (constexpr std::string_view prefix = "perf version ";
               first_line.starts_with(prefix)) {
        machine.perf_version = first_line.substr(prefix.size());
    } else {
        machine.perf_reason = fmt::format("`perf version` printed no version: {}", first_line);
    }
}

// arch/x86/kernel/cpu/proc.c (show_cpuinfo) prints the feature words as "flags\t\t: ...";
// arch/x86/include/asm/cpufeatures.h names X86_FEATURE_CONSTANT_TSC "constant_tsc" (rate does
// not follow frequency changes) and X86_FEATURE_NONSTOP_TSC "nonstop_tsc" (keeps counting in
// deep C-states). Both: the TSC is a usable clock for the trace timestamps.
void read_tsc_flags(const SystemRoots& roots, MachineCapabilities& machine) {
    const auto cpuinfo = support::read_text_file(roots.proc / "cpuinfo");
    const auto flags = cpuinfo ? field_value(*cpuinfo, "flags", ':') : std::nullopt;
    if (!flags)
        return;
    const auto present = words(*flags);
    for (const char* flag : {"constant_tsc", "nonstop_tsc"})
        if (std::find(present.begin(), present.end(), flag) == present.end())
            machine.missing_tsc_flags.push_back(flag);
    machine.invariant_tsc = machine.missing_tsc_flags.empty();
}

// fs/proc/array.c writes the affinity as "Cpus_allowed_list:\t<cpulist>"; drivers/base/cpu.c
// exposes /sys/devices/system/cpu/online in the same cpulist format.
void read_cpus(const SystemRoots& roots, MachineCapabilities& machine) {
    if (const auto online = read_first_line(roots.sys / "devices/system/cpu/online"))
        machine.cpus_online = count_cpu_list(*online);
    if (const auto status = support::read_text_file(roots.proc / "self/status"))
        if (const auto allowed = field_value(*status, "Cpus_allowed_list", ':'))
            machine.cpus_allowed = count_cpu_list(*allowed);
}

struct CgroupMount {
    std::string mount_point;
    bool v2 = false;
    bool memory = false; // v1: this hierarchy has the memory controller
};

// proc(5) /proc/self/mountinfo: "id parent major:minor root mount-point options [optional...]
// - fstype source super-options"; cgroup v1 hierarchies list their controllers in the
// super-options.
std::vector<CgroupMount> cgroup_mounts(const std::string& mountinfo) {
    std::vector<CgroupMount> mounts;
    std::istringstream lines(mountinfo);
    for (std::string line; std::getline(lines, line);) {
        const auto fields = words(line);
        const auto dash = std::find(fields.begin(), fields.end(), "-");
        if (fields.size() < 5 || dash == fields.end() || fields.end() - dash < 4)
            continue;
        const std::string& fstype = dash[1];
        if (fstype == "cgroup2") {
            mounts.push_back({fields[4], true, false});
        } else if (fstype == "cgroup") {
            std::istringstream options(dash[3]);
            bool memory = false;
            for (std::string option; std::getline(options, option, ',');)
                memory = memory || option == "memory";
            mounts.push_back({fields[4], false, memory});
        }
    }
    return mounts;
}

// /proc/self/cgroup: "hierarchy-id:controllers:path"; the v2 line is "0::path".
std::optional<std::string> own_cgroup(const std::string& text, bool v2) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos)
            continue;
        std::istringstream controllers(line.substr(first + 1, second - first - 1));
        bool match = v2 && second == first + 1;
        for (std::string controller; !v2 && std::getline(controllers, controller, ',');)
            match = match || controller == "memory";
        if (match)
            return line.substr(second + 1);
    }
    return std::nullopt;
}

// Documentation/admin-guide/cgroup-v2.rst: a v2 hierarchy lists its enabled controllers in
// cgroup.controllers at its root; v1 hierarchies are separate cgroup mounts per controller set.
void read_cgroups(const SystemRoots& roots, MachineCapabilities& machine) {
    const auto mountinfo = support::read_text_file(roots.proc / "self/mountinfo");
    if (!mountinfo)
        return;
    const auto mounts = cgroup_mounts(*mountinfo);
    const auto v2 = std::find_if(mounts.begin(), mounts.end(), [](auto& m) { return m.v2; });
    const auto v1_memory =
        std::find_if(mounts.begin(), mounts.end(), [](auto& m) { return m.memory; });
    const bool any_v1 = std::any_of(mounts.begin(), mounts.end(), [](auto& m) { return !m.v2; });
    CgroupFacts& cgroup = machine.cgroup;
    cgroup.version = v2 == mounts.end() ? (any_v1 ? CgroupVersion::v1 : CgroupVersion::none)
                                        : (any_v1 ? CgroupVersion::hybrid : CgroupVersion::v2);
    bool v2_memory = false;
    if (v2 != mounts.end())
        if (const auto controllers =
                read_first_line(under_roots(v2->mount_point, roots) / "cgroup.controllers")) {
            const auto names = words(*controllers);
            v2_memory = std::find(names.begin(), names.end(), "memory") != names.end();
        }
    cgroup.memory_controller = v1_memory != mounts.end() || v2_memory;
    if (!cgroup.memory_controller)
        return;
    // A hybrid machine charges memory through its v1 hierarchy when it has one.
    const bool use_v1 = v1_memory != mounts.end();
    const auto self = support::read_text_file(roots.proc / "self/cgroup");
    const auto path = self ? own_cgroup(*self, !use_v1) : std::nullopt;
    if (!path)
        return;
    const std::string mount = use_v1 ? v1_memory->mount_point : v2->mount_point;
    const std::string directory = *path == "/" ? mount : mount + *path;
    cgroup.memory_cgroup = directory;
    // access() also answers EROFS for a read-only cgroupfs, the usual container setup.
    cgroup.writable = ::access(under_roots(directory, roots).c_str(), W_OK) == 0;
}

std::string yes_no(bool available) {
    return available ? "yes" : "no";
}

CapabilityLine memory_sampling_line(const PmuCapabilities& pmu) {
    CapabilityLine line{"precise_memory_sampling", "precise memory sampling", true, {}};
    switch (pmu.memory_sampling()) {
    case MemorySampling::intel_pebs:
        line.detail =
            fmt::format("Intel PEBS: {}/mem-loads/{}{}", *pmu.intel_mem_pmu,
                        pmu.intel_mem_stores ? ", mem-stores" : ", no mem-stores",
                        pmu.intel_mem_loads_aux ? ", mem-loads-aux (loads grouped behind it)" : "");
        return line;
    case MemorySampling::amd_ibs:
        line.detail = fmt::format("AMD IBS op (PMU type {})", *pmu.ibs_op_type);
        return line;
    case MemorySampling::arm_spe:
        line.detail =
            fmt::format("Arm SPE ({}): loads and stores from its AUX area", *pmu.arm_spe_pmu);
        return line;
    case MemorySampling::none:
        break;
    }
    line.available = false;
    line.detail = "no cpu/mem-loads event, ibs_op or arm_spe PMU in "
                  "/sys/bus/event_source/devices";
    if (!pmu.hardware_counters)
        line.detail += " (no hardware PMU at all)";
    return line;
}

CapabilityLine tracepoint_line(const PmuCapabilities& pmu) {
    CapabilityLine line{"tracepoints", "lock tracepoints", pmu.lock_contention_tracepoints, {}};
    if (!pmu.tracefs)
        line.detail = "tracefs not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing "
                      "(a run mounts it when root)";
    else if (pmu.lock_contention_tracepoints)
        line.detail = fmt::format("lock:contention_begin/end in {}", *pmu.tracefs);
    else
        line.detail = fmt::format("tracefs at {} has no lock:contention_begin/end ids (Linux "
                                  "5.19+, readable by root)",
                                  *pmu.tracefs);
    return line;
}

CapabilityLine cgroup_line(const CgroupFacts& cgroup) {
    CapabilityLine line{"cgroup", "cgroup", cgroup.version != CgroupVersion::none, {}};
    if (!line.available) {
        line.detail = "no cgroup or cgroup2 mount in /proc/self/mountinfo";
        return line;
    }
    line.detail = fmt::format("{}, memory controller {}", to_string(cgroup.version),
                              cgroup.memory_controller ? "mounted" : "not mounted");
    if (cgroup.memory_cgroup)
        line.detail += fmt::format("; {} {}", *cgroup.memory_cgroup,
                                   cgroup.writable.value_or(false) ? "writable" : "not writable");
    return line;
}

} // namespace

std::string_view to_string(CgroupVersion version) {
    static constexpr std::array<support::EnumName<CgroupVersion>, 4> names{{
        {CgroupVersion::v1, "v1"},
        {CgroupVersion::v2, "v2"},
        {CgroupVersion::hybrid, "hybrid"},
        {CgroupVersion::none, "none"},
    }};
    return support::name_of(names, version);
}

// Documentation/admin-guide/sysctl/kernel.rst, perf_event_paranoid (torvalds/linux 01478b83):
// -1 all events for all users; >= 0 no raw tracepoints or ftrace function events without
// CAP_SYS_ADMIN; >= 1 no CPU-wide events; >= 2 no kernel profiling. Level 3 (no
// perf_event_open at all without CAP_PERFMON) is a Debian/Android patch, not upstream.
std::string paranoid_meaning(int level) {
    if (level <= -1)
        return "every user may measure every event, kernel and CPU-wide included";
    if (level == 0)
        return "users may profile CPUs and the kernel, but not raw tracepoints";
    if (level == 1)
        return "users may profile their processes, kernel included; no CPU-wide events";
    if (level == 2)
        return "users may profile their processes in user space only";
    return "no perf events without CAP_PERFMON or root (Debian's level 3)";
}

std::optional<unsigned> count_cpu_list(std::string_view list) {
    unsigned count = 0;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view range = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        const auto dash = range.find('-');
        unsigned first = 0;
        unsigned last = 0;
        const auto parse = [](std::string_view text, unsigned& value) {
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            return ec == std::errc() && end == text.data() + text.size() && !text.empty();
        };
        if (!parse(range.substr(0, dash), first))
            return std::nullopt;
        last = first;
        if (dash != std::string_view::npos &&
            (!parse(range.substr(dash + 1), last) || last < first))
            return std::nullopt;
        count += last - first + 1;
    }
    return count == 0 ? std::nullopt : std::optional<unsigned>(count);
}

std::vector<CapabilityLine> capability_lines(const MachineCapabilities& m) {
    const PmuCapabilities& pmu = m.pmu;
    std::vector<CapabilityLine> lines;
    lines.push_back({"hardware_pmu", "hardware PMU", pmu.hardware_counters,
                     pmu.hardware_counters
                         ? "a user-mode cycles counter opens"
                         : "cycles counter refused: " + pmu.hardware_counters_reason.value_or("")});
    lines.push_back(memory_sampling_line(pmu));
    lines.push_back(tracepoint_line(pmu));
    lines.push_back({"perf_event_paranoid", "perf_event_paranoid",
                     pmu.perf_event_paranoid.has_value(),
                     pmu.perf_event_paranoid
                         ? fmt::format("{}: {}", *pmu.perf_event_paranoid,
                                       paranoid_meaning(*pmu.perf_event_paranoid))
                         : "/proc/sys/kernel/perf_event_paranoid unreadable (kernel without "
                           "CONFIG_PERF_EVENTS?)"});
    lines.push_back({"perf_tool", "perf tool", m.perf_version.has_value(),
                     m.perf_version ? "perf " + *m.perf_version : m.perf_reason.value_or("")});
    // kernel/bpf/sysfs_btf.c creates /sys/kernel/btf/vmlinux with CONFIG_DEBUG_INFO_BTF (5.5+).
    lines.push_back({"kernel_btf", "kernel BTF", m.kernel_btf.has_value(),
                     m.kernel_btf ? *m.kernel_btf
                                  : "no /sys/kernel/btf/vmlinux (kernel built without "
                                    "CONFIG_DEBUG_INFO_BTF)"});
    std::string tsc_detail = "no x86 flags line in /proc/cpuinfo: no TSC";
    if (m.invariant_tsc)
        tsc_detail = *m.invariant_tsc ? "constant_tsc and nonstop_tsc"
                                      : fmt::format("missing {}: TSC ticks are not a steady clock",
                                                    fmt::join(m.missing_tsc_flags, " and "));
    lines.push_back(
        {"invariant_tsc", "invariant TSC", m.invariant_tsc.value_or(false), tsc_detail});
    lines.push_back({"cpus", "CPUs", m.cpus_online.has_value(),
                     fmt::format("{} online, {} allowed for this process",
                                 support::text_or_unknown(m.cpus_online, "{}"),
                                 support::text_or_unknown(m.cpus_allowed, "{}"))});
    // drivers/base/cacheinfo.c: coherency_line_size; index0 is the first level's cache.
    lines.push_back({"cache_line_size", "cache line size", m.cache_line_size.has_value(),
                     m.cache_line_size
                         ? fmt::format("{} bytes", *m.cache_line_size)
                         : "no /sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size "
                           "(cacheinfo not populated, common in VMs)"});
    lines.push_back(cgroup_line(m.cgroup));
    return lines;
}

nlohmann::json MachineCapabilities::to_json() const {
    nlohmann::json items = nlohmann::json::array();
    for (const CapabilityLine& line : capability_lines(*this))
        items.push_back({{"key", line.key},
                         {"label", line.label},
                         {"available", line.available},
                         {"detail", line.detail}});
    return nlohmann::json{
        {"schema_version", 1},
        {"capabilities", std::move(items)},
        {"facts",
         {{"pmu", pmu.to_json()},
          {"precise_memory_facility", to_string(pmu.memory_sampling())},
          {"perf_version", support::json_or_null(perf_version)},
          {"kernel_btf", support::json_or_null(kernel_btf)},
          {"invariant_tsc", support::json_or_null(invariant_tsc)},
          {"cpus_online", support::json_or_null(cpus_online)},
          {"cpus_allowed", support::json_or_null(cpus_allowed)},
          {"cache_line_size", support::json_or_null(cache_line_size)},
          {"cgroup_version", to_string(cgroup.version)},
          {"cgroup_memory_controller", cgroup.memory_controller},
          {"memory_cgroup", support::json_or_null(cgroup.memory_cgroup)},
          {"memory_cgroup_writable", support::json_or_null(cgroup.writable)}}},
    };
}

std::string MachineCapabilities::to_text() const {
    const auto lines = capability_lines(*this);
    std::size_t width = 0;
    for (const CapabilityLine& line : lines)
        width = std::max(width, line.label.size());
    std::string text;
    for (const CapabilityLine& line : lines)
        text += fmt::format("{:<{}}  {:<3}  {}\n", line.label, width, yes_no(line.available),
                            line.detail);
    return text;
}

MachineCapabilities detect_machine(const SystemRoots& roots,
                                   std::optional<std::string> cycles_refusal,
                                   const ToolOutput& perf_version) {
    MachineCapabilities machine;
    machine.pmu = detect_pmu(roots, std::move(cycles_refusal));
    read_perf_version(perf_version, machine);
    if (const auto btf = roots.sys / "kernel/btf/vmlinux"; std::filesystem::exists(btf))
        machine.kernel_btf = btf.string();
    read_tsc_flags(roots, machine);
    read_cpus(roots, machine);
    machine.cache_line_size = read_number<unsigned>(
        roots.sys / "devices/system/cpu/cpu0/cache/index0/coherency_line_size");
    read_cgroups(roots, machine);
    return machine;
}

MachineCapabilities detect_machine() {
    ToolOutput perf;
    // Through the shell, so PATH lookup and "not found" (127) behave as they do for a user.
    if (FILE* pipe = ::popen("perf version 2>&1", "r")) {
        std::array<char, 256> buffer{};
        while (std::fgets(buffer.data(), buffer.size(), pipe))
            perf.output += buffer.data();
        const int status = ::pclose(pipe);
        if (status != -1 && WIFEXITED(status))
            perf.exit_status = WEXITSTATUS(status);
    }
    const PmuCapabilities live = detect_pmu();
    return detect_machine(SystemRoots{}, live.hardware_counters_reason, perf);
}

} // namespace hitmap::perf
