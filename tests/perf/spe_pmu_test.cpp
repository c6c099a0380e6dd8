#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/perf/sampler.hpp"
#include "collector/perf/spe_pmu.hpp"
#include "tests/perf/fake_roots.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <utility>

namespace hitmap::perf {
namespace {

// An Arm server's sysfs as drivers/perf/arm_spe_pmu.c (torvalds/linux dd9168ab) lays it out:
// type, format/ (ATTR_CFG_FLD_* bit positions), caps/; and the cores' MIDR_EL1.
void arm_spe_machine(FakeRoots& fake, const std::vector<const char*>& midrs) {
    const auto spe = pmu_directory("arm_spe_0", fake.roots());
    fake.file(spe / "type", "8");
    const std::pair<const char*, const char*> formats[] = {
        {"ts_enable", "config:0"},      {"pa_enable", "config:1"},
        {"pct_enable", "config:2"},     {"jitter", "config:16"},
        {"branch_filter", "config:32"}, {"load_filter", "config:33"},
        {"store_filter", "config:34"},  {"event_filter", "config1:0-63"},
        {"min_latency", "config2:0-11"}};
    for (const auto& [name, bits] : formats)
        fake.file(spe / "format" / name, bits);
    fake.file(spe / "caps/min_interval", "1024");
    fake.file(spe / "caps/count_size", "12");
    fake.file(pmu_directory("armv8_pmuv3_0", fake.roots()) / "type", "7");
    for (std::size_t cpu = 0; cpu < midrs.size(); ++cpu)
        fake.file(fake.roots().sys / "devices/system/cpu" / ("cpu" + std::to_string(cpu)) /
                      "regs/identification/midr_el1",
                  midrs[cpu]);
}

constexpr const char* midr_text_neoverse_n1 = "0x00000000413fd0c1";
constexpr const char* midr_text_cortex_a55 = "0x00000000412fd050";

TEST(SpeEventSetup, NeoverseServerSamplesLoadsAndStoresEveryMinInterval) {
    FakeRoots fake;
    arm_spe_machine(fake, {midr_text_neoverse_n1, midr_text_neoverse_n1, midr_text_neoverse_n1,
                           midr_text_neoverse_n1});
    const PmuCapabilities pmu = detect_pmu(fake.roots(), std::nullopt);
    ASSERT_EQ(pmu.memory_sampling(), MemorySampling::arm_spe);
    EXPECT_EQ(pmu.arm_spe_pmu, "arm_spe_0");

    const SpeEventSetup setup = spe_event_setup(*pmu.arm_spe_pmu, fake.roots());
    EXPECT_EQ(setup.type, 8u);
    // ts_enable (bit 0), jitter (16), load_filter (33), store_filter (34); pa_enable (1) off.
    EXPECT_EQ(setup.config.config, 1ull | 1ull << 16 | 1ull << 33 | 1ull << 34);
    EXPECT_EQ(setup.config.config1, 0u);
    EXPECT_EQ(setup.config.config2, 0u); // no min_latency
    EXPECT_EQ(setup.sample_period, 1024u);
    EXPECT_EQ(setup.encoding, SpeDataSourceEncoding::common);
}

TEST(SpeEventSetup, MixedCoresAndNoCapsFallBack) {
    FakeRoots fake;
    arm_spe_machine(fake, {midr_text_neoverse_n1, midr_text_cortex_a55});
    std::filesystem::remove_all(pmu_directory("arm_spe_0", fake.roots()) / "caps");
    const SpeEventSetup setup = spe_event_setup("arm_spe_0", fake.roots());
    EXPECT_EQ(setup.sample_period, 4096u); // perf's fallback, the largest PMSIDR interval
    EXPECT_EQ(setup.encoding, SpeDataSourceEncoding::unknown);
}

TEST(SpeEventSetup, MissingPiecesAreUnsupported) {
    FakeRoots no_type;
    arm_spe_machine(no_type, {midr_text_neoverse_n1});
    std::filesystem::remove(pmu_directory("arm_spe_0", no_type.roots()) / "type");
    EXPECT_THROW(spe_event_setup("arm_spe_0", no_type.roots()), PerfUnsupported);

    FakeRoots old_driver;
    arm_spe_machine(old_driver, {midr_text_neoverse_n1});
    std::filesystem::remove(pmu_directory("arm_spe_0", old_driver.roots()) / "format/jitter");
    EXPECT_THROW(spe_event_setup("arm_spe_0", old_driver.roots()), PerfUnsupported);
}

TEST(CpuMidrs, ReadsEachCpuAndSkipsTheRest) {
    FakeRoots fake;
    arm_spe_machine(fake, {midr_text_neoverse_n1, midr_text_cortex_a55});
    const auto cpu = fake.roots().sys / "devices/system/cpu";
    std::filesystem::create_directories(cpu / "cpu2"); // offline: no regs/
    fake.file(cpu / "cpufreq/regs/identification/midr_el1", midr_text_neoverse_n1); // not a cpuN
    fake.file(cpu / "cpu3/regs/identification/midr_el1", "garbage");
    std::vector<std::uint64_t> midrs = cpu_midrs(fake.roots());
    std::ranges::sort(midrs);
    EXPECT_EQ(midrs, (std::vector<std::uint64_t>{0x412fd050, 0x413fd0c1}));
}

// On a machine without this PMU the sampler says which PMU it could not find.
TEST(MemorySampler, ArmSpeWithoutItsPmuIsUnsupported) {
    PmuCapabilities pmu;
    pmu.arm_spe_pmu = "arm_spe_hitmap_absent";
    ASSERT_EQ(pmu.memory_sampling(), MemorySampling::arm_spe);
    try {
        MemorySampler sampler(pmu);
        FAIL() << "opened a PMU that does not exist";
    } catch (const PerfUnsupported& e) {
        EXPECT_NE(std::string(e.what()).find("arm_spe_hitmap_absent"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace hitmap::perf
