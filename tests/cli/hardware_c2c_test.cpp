// The hardware c2c path without a PMU: perf c2c's classes of data sources, the choice between
// hardware and software (every branch, on described machines), and the tables and metrics a
// run's synthetic samples become.
#include "collector/perf/errors.hpp"
#include "collector/run/c2c_choice.hpp"
#include "collector/run/hardware_c2c.hpp"
#include "collector/run/placed_objects.hpp"
#include "engine/probe/probed_object.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/perf_event.h>

namespace hitmap::collector {
namespace {

using ::testing::HasSubstr;

std::uint64_t src(std::uint64_t op, std::uint64_t lvl, std::uint64_t snoop = PERF_MEM_SNOOP_NA) {
    return (op << PERF_MEM_OP_SHIFT) | (lvl << PERF_MEM_LVL_SHIFT) |
           (snoop << PERF_MEM_SNOOP_SHIFT);
}

c2c::ClassCounts counts_of(std::uint64_t raw) {
    return sample_counts(perf::decode_data_src(raw));
}

TEST(HardwareC2c, DataSourcesBecomeTheReplaysClasses) {
    const auto l1 = counts_of(src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1));
    EXPECT_EQ(l1.loads, 1u);
    EXPECT_EQ(l1.l1_hit, 1u);
    const auto hitm =
        counts_of(src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_SNOOP_HITM));
    EXPECT_EQ(hitm.load_hitm, 1u);
    EXPECT_EQ(hitm.l1_hit, 0u);
    const auto remote_hitm = counts_of(
        src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_SNOOP_HITM));
    EXPECT_EQ(remote_hitm.load_hitm, 1u);
    const auto remote_clean = counts_of(
        src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_SNOOP_HIT));
    EXPECT_EQ(remote_clean.clean_forward, 1u);
    const auto dram = counts_of(src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM));
    EXPECT_EQ(dram.cold, 1u);
    const auto store_hit = counts_of(src(PERF_MEM_OP_STORE, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1));
    EXPECT_EQ(store_hit.stores, 1u);
    EXPECT_EQ(store_hit.l1_hit, 1u);
    const auto store_miss = counts_of(src(PERF_MEM_OP_STORE, PERF_MEM_LVL_MISS | PERF_MEM_LVL_L1));
    EXPECT_EQ(store_miss.stores, 1u);
    EXPECT_EQ(store_miss.transfers() + store_miss.l1_hit + store_miss.cold, 0u)
        << "a store miss names no class";
}

perf::PmuCapabilities machine(bool pmu, bool mem_loads) {
    perf::PmuCapabilities caps;
    caps.hardware_counters = pmu;
    if (!pmu)
        caps.hardware_counters_reason = "cycles counter refused: no such event";
    if (mem_loads) {
        caps.intel_mem_pmu = "cpu";
        caps.intel_mem_loads = caps.intel_mem_stores = true;
    }
    return caps;
}

engine::WorkloadInfo workload(bool probed) {
    engine::WorkloadInfo info;
    info.name = "w";
    info.probed = probed;
    return info;
}

RunRequest request(C2cMode source) {
    RunRequest r;
    r.workload = "page-counter-charge";
    r.c2c.source = source;
    return r;
}

TEST(C2cChoice, HardwareWhereTheMachineSamplesMemory) {
    const engine::WorkloadInfo probed = workload(true);
    const auto vm = machine(false, false), bare = machine(true, true);
    EXPECT_EQ(choose_c2c(request(C2cMode::automatic), probed, bare).source,
              store::C2cSource::hardware);
    const C2cChoice fallback = choose_c2c(request(C2cMode::automatic), probed, vm);
    EXPECT_EQ(fallback.source, store::C2cSource::software);
    EXPECT_THAT(fallback.reason, HasSubstr("--c2c auto chose software: no hardware PMU"));
    try {
        choose_c2c(request(C2cMode::hardware), probed, vm);
        FAIL() << "--c2c hardware without a PMU must refuse";
    } catch (const perf::PerfUnsupported& e) {
        EXPECT_THAT(e.what(), HasSubstr("--c2c hardware: no hardware PMU (cycles counter"));
    }
    EXPECT_THROW(choose_c2c(request(C2cMode::hardware), probed, machine(true, false)),
                 perf::PerfUnsupported); // a PMU without precise memory sampling
    EXPECT_EQ(choose_c2c(request(C2cMode::hardware), probed, bare).source,
              store::C2cSource::hardware);
}

TEST(C2cChoice, OffSimulatedAndUnprobedNeedNoPmu) {
    const auto vm = machine(false, false);
    const engine::WorkloadInfo probed = workload(true);
    const engine::WorkloadInfo locks_only = workload(false);
    EXPECT_EQ(choose_c2c(request(C2cMode::off), probed, vm).source, std::nullopt);
    EXPECT_EQ(choose_c2c(request(C2cMode::software), probed, vm).source,
              store::C2cSource::software);
    EXPECT_EQ(choose_c2c(request(C2cMode::hardware), locks_only, vm).source, std::nullopt);
    RunRequest simulated = request(C2cMode::hardware);
    simulated.simulate.emplace().machine = "xeon-2s-72";
    EXPECT_EQ(choose_c2c(simulated, probed, vm).source, store::C2cSource::simulated);
}

TEST(HardwareC2c, SamplesOfARunFillItsTablesAndMetrics) {
    // Two real objects of the engine: their addresses are what samples carry.
    static const engine::StructType type{"pair", {"x", "y"}};
    engine::Layout layout{&type, "t", 16, 8, {}};
    layout.placement = {engine::FieldPlacement{0, 8}, engine::FieldPlacement{8, 8}};
    engine::WorkloadResult result;
    result.ops = 1000;
    result.ops_per_thread = {600, 400};
    engine::ProbedObject a(result.objects, "a", layout, 0);
    const auto base = reinterpret_cast<std::uintptr_t>(a.address());
    const std::uint64_t hitm =
        src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_SNOOP_HITM);
    const std::uint64_t store = src(PERF_MEM_OP_STORE, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
    std::vector<perf::MemorySample> samples(4);
    samples[0] = {.addr = base, .cpu = 0, .data_src = hitm, .weight = 300};
    samples[1] = {.addr = base + 8, .cpu = 1, .data_src = hitm, .weight = 100};
    samples[2] = {.addr = base + 8, .cpu = 1, .data_src = store, .weight = 0};
    samples[3] = {.addr = 0x1000, .cpu = 0, .data_src = hitm, .weight = 50}; // elsewhere
    const HardwareC2cResult r =
        hardware_c2c_result(samples, 7, result, perf::MemorySampling::intel_pebs);
    EXPECT_EQ(r.data.trace.format, "perf-samples:intel_pebs");
    EXPECT_EQ(r.data.trace.clock, "sampled");
    EXPECT_EQ(r.data.trace.records, 3u);
    EXPECT_EQ(r.data.trace.traced_ops, 1000u);
    EXPECT_EQ(r.data.trace.dropped_records, 7u);
    EXPECT_EQ(r.data.trace.threads, 2u);
    // Store samples carry no snoop result: their classes are unknown, not 0; load latencies
    // and lost samples are measured.
    EXPECT_EQ(r.data.trace.known, (store::KnownCounts{.store_hitm = false,
                                                      .store_shared = false,
                                                      .invalidations = false,
                                                      .cpu_migrations = false}));
    EXPECT_EQ(r.data.traced_ops(), 1000u);
    EXPECT_EQ(r.data.cpu_migrations(), std::nullopt);
    ASSERT_EQ(r.data.result.lines.size(), 1u);
    EXPECT_EQ(r.data.result.lines[0].counts.load_hitm, 2u);
    EXPECT_EQ(r.data.result.lines[0].counts.stores, 1u);
    EXPECT_DOUBLE_EQ(r.data.result.lines[0].counts.stall_cycles, 400); // load weights only
    ASSERT_EQ(r.data.result.fields.size(), 2u);
    EXPECT_EQ(r.data.result.fields[1].field_name, "y");
    EXPECT_EQ(r.data.result.fields[1].counts.accesses(), 2u);
    std::map<std::string, std::optional<double>> m;
    for (const auto& metric : r.metrics)
        m[metric.name] = metric.value;
    EXPECT_EQ(m.at("c2c.samples"), 4.0);
    EXPECT_EQ(m.at("c2c.lost_samples"), 7.0);
    EXPECT_EQ(m.at("c2c.unmapped_samples"), 1.0);
    EXPECT_EQ(m.at("c2c.load_latency_mean"), 150.0); // (300 + 100 + 50) / 3 loads
}

// --object with --c2c hardware: a struct of the running kernel's BTF placed beside the run's own
// objects, the samples inside it named by the members they hit.
TEST(HardwareC2c, ObjectsOfAnyStructAreNamedBesideTheRunsOwn) {
    if (!std::filesystem::exists("/sys/kernel/btf/vmlinux"))
        GTEST_SKIP() << "no /sys/kernel/btf/vmlinux (kernel built without BTF)";
    static const engine::StructType type{"pair", {"x", "y"}};
    engine::Layout layout{&type, "t", 16, 8, {}};
    layout.placement = {engine::FieldPlacement{0, 8}, engine::FieldPlacement{8, 8}};
    engine::WorkloadResult result;
    result.ops = 10;
    result.ops_per_thread = {10};
    engine::ProbedObject a(result.objects, "a", layout, 0);
    const std::uint64_t load = src(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
    constexpr std::uint64_t kMm = 0xffff888100000000;
    std::vector<perf::MemorySample> samples(3);
    samples[0] = {.addr = reinterpret_cast<std::uintptr_t>(a.address()), .data_src = load};
    samples[1] = {.addr = kMm, .data_src = load};
    samples[2] = {.addr = kMm + 8, .data_src = load};
    const HardwareC2cResult r = hardware_c2c_result(
        samples, 0, result, perf::MemorySampling::intel_pebs, {"mm_struct@0xffff888100000000"});
    ASSERT_EQ(r.data.objects.size(), 2u);
    EXPECT_EQ(r.data.objects[1].name, "mm_struct@0xffff888100000000");
    EXPECT_EQ(r.data.objects[1].layout.type->name, "mm_struct");
    EXPECT_EQ(r.data.trace.records, 3u);
    std::vector<std::string> names;
    for (const auto& f : r.data.result.fields)
        if (f.line.object == r.data.objects[1].id)
            names.push_back(f.field_name);
    ASSERT_EQ(names.size(), 2u);
    for (const std::string& n : names)
        EXPECT_FALSE(n.empty() || n.front() == '+') << n;
    EXPECT_THROW(hardware_c2c_result(samples, 0, result, perf::MemorySampling::intel_pebs,
                                     {"mm_struct@nowhere"}),
                 ObjectSpecError);
}

} // namespace
} // namespace hitmap::collector
