// The seeds' many-core results projected on the simulated machine (issue 11 acceptance 4, 5),
// with calibrations measured on this machine and committed (tests/data/calibration/), so the
// figures are exact functions of committed inputs and hold on any host.
#include "collector/run/simulated_run.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::collector {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::filesystem::path kCalibrations = HITMAP_TEST_DATA "/calibration";

sim::Calibration calibration_of(const std::string& file, const std::string& variant) {
    for (sim::Calibration& c : sim::load_calibrations(kCalibrations / file))
        if (c.variant == variant)
            return c;
    throw std::runtime_error(file + " has no calibration of " + variant);
}

SimulatedRun simulate(const std::string& workload, const std::string& variant, unsigned threads,
                      std::uint64_t iterations, nlohmann::json params,
                      const std::string& calibration_file,
                      const std::string& machine = "xeon-2s-72") {
    engine::WorkloadRunConfig config;
    config.variant = variant;
    config.threads = threads;
    config.stop.iterations = iterations;
    config.params = std::move(params);
    return run_simulated(engine::find_workload(workload), config, sim::find_machine(machine),
                         calibration_of(calibration_file, variant));
}

double ops_per_s(const SimulatedRun& run) {
    return static_cast<double>(run.result.ops) / run.result.seconds;
}

// HITMs on the memory.usage line taken by fields other than usage after a write to usage:
// the false sharing patch 2 removes.
std::uint64_t neighbours_hitm_after_usage(const SimulatedRun& run) {
    std::uint64_t n = 0;
    for (const c2c::PairStats& p : run.c2c.result.pairs)
        if (p.writer_name == "memory.usage" && p.accessor_name != "memory.usage" && !p.true_sharing)
            n += p.counts.hitm();
    return n;
}

// Seed 001: 36 netperf pairs on a 72-CPU machine; each operation carries the ~3.4 us of the
// rest of the networking path (docs/REPRODUCTION.md derives it from the seed's Mbps).
TEST(SeedProjection, PageCounterLayoutPatchGainsWithinAFactorOfTwoOfTheSeedAt72Cpus) {
    const nlohmann::json params = {{"work_ns", 3400}};
    const auto file = "page-counter-charge.json";
    const SimulatedRun base = simulate("page-counter-charge", "v6.0", 72, 400, params, file);
    const SimulatedRun p2 = simulate("page-counter-charge", "v6.0+p2", 72, 400, params, file);
    const double gain = ops_per_s(p2) / ops_per_s(base) - 1.0;
    // The seed: +18.4 %; a factor of two either way is +9 % .. +37 %.
    EXPECT_GT(gain, 0.09) << gain;
    EXPECT_LT(gain, 0.37) << gain;
    // The cause: limit fields and css.parent no longer read from the memory.usage line.
    EXPECT_GT(neighbours_hitm_after_usage(base), 1000u);
    EXPECT_LT(neighbours_hitm_after_usage(p2), neighbours_hitm_after_usage(base) / 20);
}

std::uint64_t counter_lock_contentions(const SimulatedRun& run) {
    for (const engine::LockClassReport& l : run.result.locks)
        if (l.name == "&counter->lock")
            return l.contentions;
    ADD_FAILURE() << "no &counter->lock class";
    return 0;
}

// Seed 003: Kamezawa's precharge cut &counter->lock contentions by 98.9 %.
TEST(SeedProjection, PrechargeHasAtLeastNinetyPercentFewerCounterLockContentions) {
    const auto file = "res-counter-charge.json";
    for (const unsigned cpus : {16u, 64u}) {
        const auto per_page = counter_lock_contentions(
            simulate("res-counter-charge", "per-page", cpus, 300, {}, file));
        const auto precharge = counter_lock_contentions(
            simulate("res-counter-charge", "precharge", cpus, 300, {}, file));
        EXPECT_GT(per_page, 0u) << cpus;
        EXPECT_LE(static_cast<double>(precharge), 0.10 * static_cast<double>(per_page))
            << cpus << " CPUs: " << precharge << " vs " << per_page;
    }
}

// The line with the most HITMs: its object and the fields on it, as the report's top row.
std::string top_line(const SimulatedRun& run) {
    const auto& r = run.c2c.result;
    const auto top =
        std::max_element(r.lines.begin(), r.lines.end(), [](const auto& a, const auto& b) {
            return a.counts.hitm() < b.counts.hitm();
        });
    std::string out = run.c2c.objects.at(top->line.object).name + ":";
    for (const c2c::FieldStats& f : r.fields)
        if (f.line == top->line)
            out += " " + f.field_name;
    return out;
}

// Seed 000, the multi-thread table: 96 threads of the 2-socket 48-core machine in one memcg.
// On v2 patch 3 frees nr_charged_bytes from every free (seed: 6,242 -> 418,142 kops/s, 67x); on
// v1 the shared memcg->kmem counter remains (3,520 -> 4,731, 1.34x).
TEST(SeedProjection, KmemPatch3ScalesOnV2AndNotOnV1At96Threads) {
    const auto machine = "cascadelake-2s-96";
    auto run = [&](const char* variant, const char* cgroup) {
        return simulate("kmem-alloc-free-mt", variant, 96, 40, {{"cgroup", cgroup}},
                        fmt::format("kmem-alloc-free-mt-{}.json", cgroup), machine);
    };
    const SimulatedRun none_v2 = run("none", "v2"), p3_v2 = run("1-3", "v2");
    const SimulatedRun none_v1 = run("none", "v1"), p3_v1 = run("1-3", "v1");
    EXPECT_GE(ops_per_s(p3_v2), 10 * ops_per_s(none_v2));
    EXPECT_LE(ops_per_s(p3_v1), 2 * ops_per_s(none_v1));
    EXPECT_GT(ops_per_s(p3_v1), ops_per_s(none_v1));
    EXPECT_THAT(top_line(none_v2), HasSubstr("test objcg: "));
    EXPECT_THAT(top_line(none_v2), HasSubstr("nr_charged_bytes"));
    EXPECT_THAT(top_line(p3_v2), Not(HasSubstr("nr_charged_bytes")));
    EXPECT_THAT(top_line(p3_v1), HasSubstr("kmem.usage"));
}

// Seed 004: hackbench in process mode regressed 62.4 %; draining the object stock past 32 pages
// instead of one mitigated part of it. 24 sender/receiver pairs, four groups.
TEST(SeedProjection, ObjcgFreeDrainAt32PagesIsAPartialMitigation) {
    const auto machine = "cascadelake-2s-96";
    auto run = [&](const char* variant, const char* drain) {
        return simulate("objcg-free", variant, 48, 400, {{"mode", "process"}, {"drain", drain}},
                        "objcg-free.json", machine);
    };
    const SimulatedRun page = run("none", "1page"), pages32 = run("none", "32pages");
    const SimulatedRun off = run("off", "1page");
    EXPECT_LT(ops_per_s(page), ops_per_s(pages32));
    EXPECT_LT(ops_per_s(pages32), ops_per_s(off));
    // Where the remote frees pay: the objcg vector lines and obj_cgroup.nr_charged_bytes.
    auto transfers = [](const SimulatedRun& r, std::string_view object_suffix,
                        std::string_view field_prefix) {
        std::uint64_t n = 0;
        for (const c2c::FieldStats& f : r.c2c.result.fields)
            if (r.c2c.objects.at(f.line.object).name.ends_with(object_suffix) &&
                f.field_name.starts_with(field_prefix))
                n += f.counts.transfers();
        return n;
    };
    EXPECT_GT(transfers(page, " objcgs", "objcgs["), 1000u);
    EXPECT_GT(transfers(page, " objcg", "nr_charged_bytes"), 1000u);
    EXPECT_LT(transfers(pages32, " objcg", "nr_charged_bytes"),
              transfers(page, " objcg", "nr_charged_bytes") / 2);
}

// Seed 002: reading 1,000 memcgs' memory.stat on a 256-CPU machine, 0.125 s before and 0.032 s
// after (3.9x); acceptance: within a factor of two of that ratio, named by the misses.
TEST(SeedProjection, MemoryStatReadIsFasterWithLocalCountersWithinAFactorOfTwoOfTheSeed) {
    const auto file = "memory-stat-read.json";
    const SimulatedRun v65 = simulate("memory-stat-read", "v6.5", 1, 1000, {}, file, "epyc-2s-256");
    const SimulatedRun v66 = simulate("memory-stat-read", "v6.6", 1, 1000, {}, file, "epyc-2s-256");
    const double ratio = v65.result.seconds / v66.result.seconds;
    EXPECT_GE(ratio, 3.9 / 2);
    EXPECT_LE(ratio, 3.9 * 2);
    EXPECT_EQ(v65.result.stats["percpu_reads_per_file"], 19 * 256);
    EXPECT_EQ(v66.result.stats["percpu_reads_per_file"], 0);
}

} // namespace
} // namespace hitmap::collector
