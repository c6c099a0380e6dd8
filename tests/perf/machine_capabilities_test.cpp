#include "collector/perf/machine_capabilities.hpp"
#include "tests/perf/fake_roots.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace hitmap::perf {
namespace {

const ToolOutput perf_61{0, "perf version 6.1.187\n"};
const std::string no_pmu = "no such event on this PMU (ENOENT; typical in a VM)";

// The report line with this key.
CapabilityLine line(const MachineCapabilities& m, std::string_view key) {
    const auto lines = capability_lines(m);
    const auto it = std::find_if(lines.begin(), lines.end(),
                                 [&](const CapabilityLine& l) { return l.key == key; });
    EXPECT_NE(it, lines.end()) << key;
    return it == lines.end() ? CapabilityLine{} : *it;
}

bool mentions(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

// A cgroup v2-only machine (Debian 12's default): one cgroup2 mount with memory enabled.
void cgroup_v2(FakeRoots& fake) {
    fake.file(fake.roots().proc / "self/mountinfo",
              "22 28 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
              "26 22 0:23 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate");
    fake.file(fake.roots().sys / "fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids");
    fake.file(fake.roots().proc / "self/cgroup", "0::/user.slice/session-1.scope");
    std::filesystem::create_directories(fake.roots().sys / "fs/cgroup/user.slice/session-1.scope");
}

TEST(DetectMachine, NothingReadableIsUnknownNotZero) {
    FakeRoots fake;
    const MachineCapabilities m =
        detect_machine(fake.roots(), no_pmu, {127, "sh: perf: not found"});
    EXPECT_FALSE(m.pmu.hardware_counters);
    EXPECT_FALSE(m.perf_version);
    EXPECT_FALSE(m.kernel_btf);
    EXPECT_FALSE(m.invariant_tsc);
    EXPECT_FALSE(m.cpus_online);
    EXPECT_FALSE(m.cpus_allowed);
    EXPECT_FALSE(m.cache_line_size);
    EXPECT_EQ(m.cgroup.version, CgroupVersion::none);
    for (const CapabilityLine& l : capability_lines(m)) {
        EXPECT_FALSE(l.available) << l.key;
        EXPECT_FALSE(l.detail.empty()) << l.key; // every "no" says why
    }
    EXPECT_TRUE(mentions(line(m, "hardware_pmu").detail, "ENOENT"));
    EXPECT_TRUE(mentions(line(m, "perf_tool").detail, "not found in PATH"));
    EXPECT_TRUE(mentions(line(m, "cpus").detail, "– online"));
    const auto json = m.to_json();
    EXPECT_TRUE(json["facts"]["cpus_online"].is_null());
    EXPECT_TRUE(json["facts"]["cache_line_size"].is_null());
    EXPECT_TRUE(json["facts"]["invariant_tsc"].is_null());
    EXPECT_EQ(json["facts"]["precise_memory_facility"], "none");
}

TEST(DetectMachine, IntelHybridWithMemLoadsAux) {
    FakeRoots fake;
    std::filesystem::create_directories(pmu_directory("cpu_atom", fake.roots()) / "events");
    fake.event("cpu_core", "mem-loads");
    fake.event("cpu_core", "mem-stores");
    fake.event("cpu_core", "mem-loads-aux");
    fake.file(fake.roots().proc / "sys/kernel/perf_event_paranoid", "2");
    const MachineCapabilities m = detect_machine(fake.roots(), std::nullopt, perf_61);
    EXPECT_TRUE(line(m, "hardware_pmu").available);
    const CapabilityLine sampling = line(m, "precise_memory_sampling");
    EXPECT_TRUE(sampling.available);
    EXPECT_EQ(
        sampling.detail,
        "Intel PEBS: cpu_core/mem-loads/, mem-stores, mem-loads-aux (loads grouped behind it)");
    EXPECT_EQ(line(m, "perf_event_paranoid").detail,
              "2: users may profile their processes in user space only");
    EXPECT_EQ(m.perf_version, "6.1.187");
    EXPECT_EQ(line(m, "perf_tool").detail, "perf 6.1.187");
}

TEST(DetectMachine, AmdIbsOp) {
    FakeRoots fake;
    fake.file(pmu_directory("ibs_op", fake.roots()) / "type", "11");
    const MachineCapabilities m = detect_machine(fake.roots(), std::nullopt, perf_61);
    EXPECT_EQ(line(m, "precise_memory_sampling").detail, "AMD IBS op (PMU type 11)");
    EXPECT_EQ(m.to_json()["facts"]["precise_memory_facility"], "amd_ibs");
}

TEST(DetectMachine, ArmSpeAndNoTscOnArm) {
    FakeRoots fake;
    fake.file(pmu_directory("arm_spe_0", fake.roots()) / "type", "8");
    fake.file(fake.roots().proc / "cpuinfo",
              "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes crc32\n");
    const MachineCapabilities m = detect_machine(fake.roots(), std::nullopt, perf_61);
    const CapabilityLine sampling = line(m, "precise_memory_sampling");
    EXPECT_TRUE(sampling.available);
    EXPECT_TRUE(mentions(sampling.detail, "Arm SPE (arm_spe_0)")) << sampling.detail;
    EXPECT_FALSE(m.invariant_tsc); // unknown: no x86 flags line
    EXPECT_TRUE(mentions(line(m, "invariant_tsc").detail, "no x86 flags line"));
}

TEST(DetectMachine, NoMemorySamplingSaysWhereItLooked) {
    FakeRoots fake;
    const MachineCapabilities m = detect_machine(fake.roots(), no_pmu, perf_61);
    const CapabilityLine sampling = line(m, "precise_memory_sampling");
    EXPECT_FALSE(sampling.available);
    EXPECT_TRUE(mentions(sampling.detail, "mem-loads")) << sampling.detail;
    EXPECT_TRUE(mentions(sampling.detail, "no hardware PMU at all")) << sampling.detail;
}

TEST(DetectMachine, InvariantTscNeedsBothFlags) {
    FakeRoots with;
    with.file(with.roots().proc / "cpuinfo",
              "processor\t: 0\nflags\t\t: fpu tsc constant_tsc rep_good nopl nonstop_tsc\n"
              "vmx flags\t: vnmi\n");
    EXPECT_EQ(detect_machine(with.roots(), no_pmu, perf_61).invariant_tsc, true);

    FakeRoots without;
    without.file(without.roots().proc / "cpuinfo",
                 "processor\t: 0\nflags\t\t: fpu tsc constant_tsc\n");
    const MachineCapabilities m = detect_machine(without.roots(), no_pmu, perf_61);
    EXPECT_EQ(m.invariant_tsc, false);
    EXPECT_EQ(m.missing_tsc_flags, std::vector<std::string>{"nonstop_tsc"});
    EXPECT_TRUE(mentions(line(m, "invariant_tsc").detail, "missing nonstop_tsc"));
}

TEST(DetectMachine, BtfPresentAndAbsent) {
    FakeRoots with;
    with.file(with.roots().sys / "kernel/btf/vmlinux", "BTF");
    EXPECT_TRUE(line(detect_machine(with.roots(), no_pmu, perf_61), "kernel_btf").available);
    FakeRoots without;
    const CapabilityLine absent =
        line(detect_machine(without.roots(), no_pmu, perf_61), "kernel_btf");
    EXPECT_FALSE(absent.available);
    EXPECT_TRUE(mentions(absent.detail, "CONFIG_DEBUG_INFO_BTF"));
}

TEST(DetectMachine, CpusCacheLine) {
    FakeRoots fake;
    fake.file(fake.roots().sys / "devices/system/cpu/online", "0-3,8,10-11");
    fake.file(fake.roots().proc / "self/status",
              "Name:\tx\nCpus_allowed:\tf\nCpus_allowed_list:\t0-1\n");
    fake.file(fake.roots().sys / "devices/system/cpu/cpu0/cache/index0/coherency_line_size", "64");
    const MachineCapabilities m = detect_machine(fake.roots(), no_pmu, perf_61);
    EXPECT_EQ(m.cpus_online, 7u);
    EXPECT_EQ(m.cpus_allowed, 2u);
    EXPECT_EQ(m.cache_line_size, 64u);
    EXPECT_EQ(line(m, "cpus").detail, "7 online, 2 allowed for this process");
    EXPECT_EQ(line(m, "cache_line_size").detail, "64 bytes");
}

TEST(CountCpuList, KernelCpulistFormat) {
    EXPECT_EQ(count_cpu_list("0"), 1u);
    EXPECT_EQ(count_cpu_list("0-1"), 2u);
    EXPECT_EQ(count_cpu_list("0-3,8,10-11"), 7u);
    EXPECT_EQ(count_cpu_list(""), std::nullopt);
    EXPECT_EQ(count_cpu_list("3-1"), std::nullopt);
    EXPECT_EQ(count_cpu_list("0-"), std::nullopt);
    EXPECT_EQ(count_cpu_list("a"), std::nullopt);
}

TEST(DetectMachine, CgroupV2WithMemory) {
    FakeRoots fake;
    cgroup_v2(fake);
    const MachineCapabilities m = detect_machine(fake.roots(), no_pmu, perf_61);
    EXPECT_EQ(m.cgroup.version, CgroupVersion::v2);
    EXPECT_TRUE(m.cgroup.memory_controller);
    EXPECT_EQ(m.cgroup.memory_cgroup, "/sys/fs/cgroup/user.slice/session-1.scope");
    EXPECT_EQ(m.cgroup.writable, true); // the fake tree is ours
    EXPECT_EQ(line(m, "cgroup").detail,
              "v2, memory controller mounted; /sys/fs/cgroup/user.slice/session-1.scope writable");
}

TEST(DetectMachine, CgroupV2WithoutMemory) {
    FakeRoots fake;
    cgroup_v2(fake);
    fake.file(fake.roots().sys / "fs/cgroup/cgroup.controllers", "cpu pids");
    const MachineCapabilities m = detect_machine(fake.roots(), no_pmu, perf_61);
    EXPECT_FALSE(m.cgroup.memory_controller);
    EXPECT_FALSE(m.cgroup.memory_cgroup);
    EXPECT_EQ(line(m, "cgroup").detail, "v2, memory controller not mounted");
}

TEST(DetectMachine, CgroupV1AndHybrid) {
    const std::string v1 =
        "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
        "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
        "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n";
    const std::string self = "4:memory:/runner\n1:cpu:/\n0::/\n";
    FakeRoots v1_only;
    v1_only.file(v1_only.roots().proc / "self/mountinfo", v1);
    v1_only.file(v1_only.roots().proc / "self/cgroup", self);
    std::filesystem::create_directories(v1_only.roots().sys / "fs/cgroup/memory/runner");
    const MachineCapabilities a = detect_machine(v1_only.roots(), no_pmu, perf_61);
    EXPECT_EQ(a.cgroup.version, CgroupVersion::v1);
    EXPECT_TRUE(a.cgroup.memory_controller);
    EXPECT_EQ(a.cgroup.memory_cgroup, "/sys/fs/cgroup/memory/runner");

    FakeRoots hybrid;
    hybrid.file(hybrid.roots().proc / "self/mountinfo",
                v1 + "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw");
    hybrid.file(hybrid.roots().proc / "self/cgroup", self);
    const MachineCapabilities b = detect_machine(hybrid.roots(), no_pmu, perf_61);
    EXPECT_EQ(b.cgroup.version, CgroupVersion::hybrid);
    EXPECT_EQ(b.cgroup.memory_cgroup, "/sys/fs/cgroup/memory/runner"); // v1 memory charges
    EXPECT_EQ(b.cgroup.writable, false); // that directory does not exist in this tree
    EXPECT_EQ(b.to_json()["facts"]["cgroup_version"], "hybrid");
}

TEST(DetectMachine, PerfToolFailures) {
    FakeRoots fake;
    const auto reason = [&](const ToolOutput& run) {
        return detect_machine(fake.roots(), no_pmu, run).perf_reason.value_or("");
    };
    EXPECT_TRUE(mentions(reason({std::nullopt, ""}), "could not start"));
    EXPECT_EQ(reason({2, "WARNING: perf not found for kernel 6.18\n\n  You may need to install"}),
              "`perf version` exited with status 2: WARNING: perf not found for kernel 6.18");
    EXPECT_TRUE(mentions(reason({0, "something else\n"}), "printed no version"));
}

TEST(DetectMachine, ParanoidLevelsInWords) {
    EXPECT_TRUE(mentions(paranoid_meaning(-1), "every user"));
    EXPECT_TRUE(mentions(paranoid_meaning(0), "not raw tracepoints"));
    EXPECT_TRUE(mentions(paranoid_meaning(1), "no CPU-wide"));
    EXPECT_TRUE(mentions(paranoid_meaning(2), "user space only"));
    EXPECT_TRUE(mentions(paranoid_meaning(4), "CAP_PERFMON"));
}

TEST(DetectMachine, TextIsOneAlignedLinePerCapability) {
    FakeRoots fake;
    const MachineCapabilities m = detect_machine(fake.roots(), no_pmu, perf_61);
    const std::string text = m.to_text();
    const auto lines = capability_lines(m);
    EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), lines.size());
    // The yes/no column starts at the same offset on every line.
    std::istringstream in(text);
    std::optional<std::size_t> column;
    for (std::string row; std::getline(in, row);) {
        const auto at = std::min(row.find("  yes  "), row.find("  no   "));
        ASSERT_NE(at, std::string::npos) << row;
        if (!column)
            column = at;
        EXPECT_EQ(at, *column) << row;
    }
}

} // namespace
} // namespace hitmap::perf
