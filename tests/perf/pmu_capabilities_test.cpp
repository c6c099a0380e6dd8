#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/perf/sampler.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::perf {
namespace {

TEST(DetectPmu, FieldsAreConsistent) {
    const PmuCapabilities pmu = detect_pmu();
    EXPECT_NE(pmu.hardware_counters, pmu.hardware_counters_reason.has_value());
    EXPECT_EQ(pmu.intel_mem_loads, pmu.intel_mem_pmu.has_value());
    if (!pmu.intel_mem_loads) {
        EXPECT_FALSE(pmu.intel_mem_stores || pmu.intel_mem_loads_aux);
    }
    if (pmu.lock_contention_tracepoints) {
        EXPECT_TRUE(pmu.tracefs);
    }
    EXPECT_EQ(pmu.perf_event_paranoid, perf_event_paranoid());
    EXPECT_EQ(pmu.tracefs.has_value(), tracefs_root().has_value());
    EXPECT_EQ(pmu.lock_contention_tracepoints,
              tracepoint_id("lock", "contention_begin") && tracepoint_id("lock", "contention_end"));
}

TEST(DetectPmu, MemorySamplingPrefersIntelThenAmd) {
    PmuCapabilities pmu;
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::none);
    pmu.ibs_op_type = 11;
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::amd_ibs);
    pmu.intel_mem_loads = true;
    EXPECT_EQ(pmu.memory_sampling(), MemorySampling::intel_pebs);
}

TEST(DetectPmu, JsonMirrorsTheStruct) {
    const PmuCapabilities pmu = detect_pmu();
    const nlohmann::json json = nlohmann::json::parse(pmu.to_json().dump());
    EXPECT_EQ(json.at("hardware_counters").get<bool>(), pmu.hardware_counters);
    EXPECT_EQ(json.at("hardware_counters_reason").is_null(), !pmu.hardware_counters_reason);
    EXPECT_EQ(json.at("memory_sampling").get<std::string>(), to_string(pmu.memory_sampling()));
    EXPECT_EQ(json.at("intel_mem_loads").get<bool>(), pmu.intel_mem_loads);
    EXPECT_EQ(json.at("ibs_op_type").is_null(), !pmu.ibs_op_type);
    EXPECT_EQ(json.at("perf_event_paranoid").is_null(), !pmu.perf_event_paranoid);
    if (pmu.perf_event_paranoid) {
        EXPECT_EQ(json.at("perf_event_paranoid").get<int>(), *pmu.perf_event_paranoid);
    }
    EXPECT_EQ(json.at("tracefs").is_null(), !pmu.tracefs);
    EXPECT_EQ(json.at("lock_contention_tracepoints").get<bool>(), pmu.lock_contention_tracepoints);
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
