#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/perf/sampler.hpp"
#include "tests/perf/fake_roots.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::perf {
namespace {

TEST(DetectPmu, NoPmuNoTracefs) {
    FakeRoots fake;
    const PmuCapabilities pmu = detect_pmu(fake.roots(), "no such event on this PMU (ENOENT)");
    EXPECT_FALSE(pmu.hardware_counters);
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::none);
    EXPECT_FALSE(pmu.intel_mem_pmu);
    EXPECT_FALSE(pmu.ibs_op_type);
    EXPECT_FALSE(pmu.perf_event_paranoid);
    EXPECT_FALSE(pmu.tracefs);
    EXPECT_FALSE(pmu.lock_contention_tracepoints);
    EXPECT_EQ(pmu.summary(), "hardware counters: no (no such event on this PMU (ENOENT)); precise "
                             "memory sampling: none; perf_event_paranoid: unreadable; tracefs: "
                             "not mounted; lock contention tracepoints: no");
    const auto json = pmu.to_json();
    EXPECT_EQ(json["memory_sampling"], "none");
    EXPECT_TRUE(json["tracefs"].is_null());
    EXPECT_TRUE(json["perf_event_paranoid"].is_null());
}

TEST(DetectPmu, IntelMemLoadsAndStoresWithTheAuxQuirk) {
    FakeRoots fake;
    fake.event("cpu", "mem-loads");
    fake.event("cpu", "mem-stores");
    fake.event("cpu", "mem-loads-aux");
    fake.file(fake.roots().proc / "sys/kernel/perf_event_paranoid", "2");
    const PmuCapabilities pmu = detect_pmu(fake.roots(), std::nullopt);
    EXPECT_TRUE(pmu.hardware_counters);
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::intel_pebs);
    EXPECT_EQ(pmu.intel_mem_pmu, "cpu");
    EXPECT_TRUE(pmu.intel_mem_stores);
    EXPECT_TRUE(pmu.intel_mem_loads_aux);
    EXPECT_EQ(pmu.perf_event_paranoid, 2);
    EXPECT_EQ(pmu.to_json()["memory_sampling"], "intel_pebs");
}

TEST(DetectPmu, HybridIntelSamplesOnTheCoreCpuPmu) {
    FakeRoots fake;
    std::filesystem::create_directories(pmu_directory("cpu", fake.roots()) / "events");
    fake.event("cpu_core", "mem-loads");
    const PmuCapabilities pmu = detect_pmu(fake.roots(), std::nullopt);
    EXPECT_EQ(pmu.intel_mem_pmu, "cpu_core");
    EXPECT_FALSE(pmu.intel_mem_stores);
    EXPECT_FALSE(pmu.intel_mem_loads_aux);
}

TEST(DetectPmu, AmdIbsOpByItsDynamicType) {
    FakeRoots fake;
    fake.file(pmu_directory("ibs_op", fake.roots()) / "type", "11");
    fake.file(fake.roots().proc / "sys/kernel/perf_event_paranoid", "-1");
    const PmuCapabilities pmu = detect_pmu(fake.roots(), std::nullopt);
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::amd_ibs);
    EXPECT_EQ(pmu.ibs_op_type, 11u);
    EXPECT_EQ(pmu.perf_event_paranoid, -1);
    EXPECT_EQ(pmu.to_json()["ibs_op_type"], 11);
}

// The first SPE instance is sampled (its event setup: spe_pmu_test.cpp).
TEST(DetectPmu, ArmSpeIsTheFirstInstance) {
    FakeRoots fake;
    fake.file(pmu_directory("arm_spe_1", fake.roots()) / "type", "9");
    fake.file(pmu_directory("arm_spe_0", fake.roots()) / "type", "8");
    fake.file(pmu_directory("armv8_pmuv3_0", fake.roots()) / "type", "7");
    const PmuCapabilities pmu = detect_pmu(fake.roots(), std::nullopt);
    EXPECT_EQ(pmu.arm_spe_pmu, "arm_spe_0");
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::arm_spe);
    EXPECT_EQ(pmu.to_json()["arm_spe_pmu"], "arm_spe_0");
    EXPECT_EQ(pmu.to_json()["memory_sampling"], "arm_spe");
}

TEST(DetectPmu, TracefsWithAndWithoutTheLockTracepoints) {
    FakeRoots without;
    without.tracepoints(false);
    const PmuCapabilities a = detect_pmu(without.roots(), std::nullopt);
    EXPECT_EQ(a.tracefs, (without.roots().sys / "kernel/tracing").string());
    EXPECT_FALSE(a.lock_contention_tracepoints);
    EXPECT_EQ(tracepoint_id("lock", "contention_begin", without.roots()), std::nullopt);

    FakeRoots with;
    with.tracepoints(true);
    const PmuCapabilities b = detect_pmu(with.roots(), std::nullopt);
    EXPECT_TRUE(b.lock_contention_tracepoints);
    EXPECT_EQ(tracepoint_id("lock", "contention_begin", with.roots()), 1510u);
    EXPECT_EQ(tracepoint_id("lock", "contention_end", with.roots()), 1511u);
}

// Only the mounted one counts: an empty mount point (tracefs not mounted) is no tracefs.
TEST(DetectPmu, DebugfsTracingIsTheFallbackMountPoint) {
    FakeRoots fake;
    std::filesystem::create_directories(fake.roots().sys / "kernel/tracing");
    std::filesystem::create_directories(fake.roots().sys / "kernel/debug/tracing/events");
    EXPECT_EQ(tracefs_root(fake.roots()), fake.roots().sys / "kernel/debug/tracing");
}

TEST(DetectPmu, MemorySamplingPrefersIntelThenAmdThenArm) {
    PmuCapabilities pmu;
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::none);
    pmu.arm_spe_pmu = "arm_spe_0";
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::arm_spe);
    pmu.ibs_op_type = 11;
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::amd_ibs);
    pmu.intel_mem_loads = true;
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::intel_pebs);
}

TEST(DetectPmu, SummaryIsOneLine) {
    const std::string summary = detect_pmu().summary();
    EXPECT_EQ(summary.find('\n'), std::string::npos);
    EXPECT_NE(summary.find("hardware counters: "), std::string::npos);
    EXPECT_NE(summary.find("precise memory sampling: "), std::string::npos);
    std::cout << summary << "\n"; // what this machine offers, for the test log
}

TEST(MemorySampler, OpensWhereThePmuSamplesMemoryAndIsUnsupportedElsewhere) {
    const PmuCapabilities pmu = detect_pmu();
    if (pmu.memory_sampling() == MemorySampling::none) {
        try {
            MemorySampler sampler(pmu);
            FAIL() << "opened without a memory sampling facility";
        } catch (const PerfUnsupported& e) {
            EXPECT_NE(std::string(e.what()).find("virtual PMU"), std::string::npos) << e.what();
        }
        return;
    }
    // Hardware world: opening may still be refused (privileges, old kernel), but with a reason.
    try {
        MemorySampler sampler(pmu);
        EXPECT_EQ(sampler.facility(), pmu.memory_sampling());
        sampler.enable();
        sampler.disable();
        const SampleBatch batch = sampler.drain();
        for (const MemorySample& sample : batch.samples)
            EXPECT_EQ(sample.tid, static_cast<std::uint32_t>(::gettid()));
    } catch (const PerfError& e) {
        EXPECT_GT(std::string(e.what()).size(), 0u);
    }
}

} // namespace
} // namespace hitmap::perf
