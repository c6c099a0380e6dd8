// Per-CPU memory on the simulated machine's finite caches: a sum over every possible CPU keeps
// the machine's outstanding misses in flight, a counter another CPU wrote is a transfer, and
// seed 002's memory.stat read misses as the kernel's would. Exact: a function of the inputs.
#include "collector/sim/simulator.hpp"
#include "engine/memcg/percpu_area.hpp"
#include "engine/workloads/workload.hpp"

#include <gtest/gtest.h>

namespace hitmap::sim {
namespace {

using engine::Site;

// epyc-2s-256 with no calibrated work, and a 256-CPU area holding one counter.
struct PercpuMachine {
    Simulator sim{find_machine("epyc-2s-256"), uniform_calibration(0)};
    engine::ObjectRegistry registry;
    engine::PercpuArea area{256};
    std::uint32_t counter = area.alloc(8);
    engine::SimulationScope scope{&sim};

    PercpuMachine() { area.commit(); }
};

// CPU 0 sums one counter of every unit of a 256-CPU area, overlapped or one load at a time.
double sum_access_ns(bool overlapped) {
    PercpuMachine m;
    auto& [sim, registry, area, counter, scope] = m;
    std::int64_t sum = 0;
    sim.run(1, {}, {}, registry, [&](unsigned, const std::atomic<bool>&) {
        area.for_each_possible([&](unsigned c) {
            sum += area.load(c, counter, Site::memcg_page_state_local, overlapped);
        });
    });
    EXPECT_EQ(sum, 0);
    EXPECT_EQ(sim.stats().caches->memory, 256u);
    EXPECT_EQ(sim.stats().caches->percpu_accesses, 256u);
    return sim.stats().cpus.at(0).access_ns;
}

TEST(PercpuSimulation, ASumOverEveryCpuKeepsTheMachinesOutstandingMissesInFlight) {
    // Units of CPUs 64..127 and 192..255 live in the second socket's memory: 128 local reads at
    // 110 ns and 128 remote at 190 ns.
    const double serial = sum_access_ns(false);
    EXPECT_DOUBLE_EQ(serial, 128 * 110.0 + 128 * 190.0);
    // 24 in flight: at least the serial time over 24, at most that plus one remote miss.
    const double overlapped = sum_access_ns(true);
    EXPECT_GE(overlapped, serial / 24);
    EXPECT_LE(overlapped, serial / 24 + 190);
}

TEST(PercpuSimulation, ACounterAnotherCpuWroteIsATransferAndThenAHit) {
    PercpuMachine m;
    auto& [sim, registry, area, counter, scope] = m;
    sim.run(2, {}, {}, registry, [&](unsigned slot, const std::atomic<bool>&) {
        if (slot == 1) {
            area.add(1, counter, 5, Site::mod_memcg_state); // its own unit
            return;
        }
        sim.outside_work(std::chrono::microseconds(1));
        EXPECT_EQ(area.load(1, counter, Site::memcg_page_state_local), 5);
        EXPECT_EQ(area.load(1, counter, Site::memcg_page_state_local), 5);
    });
    const CacheCounts& c = *sim.stats().caches;
    EXPECT_EQ(c.percpu_accesses, 3u);
    EXPECT_EQ(c.percpu_transfers, 1u); // CPU 0's first read; its second hits its L1
    EXPECT_EQ(c.memory, 1u);           // CPU 1's first touch
}

struct StatRead {
    double seconds;
    nlohmann::json stats;
    CacheCounts caches;
};

StatRead read_memory_stat(const std::string& variant, unsigned memcgs) {
    Simulator sim(find_machine("epyc-2s-256"), uniform_calibration(5));
    engine::WorkloadRunConfig config;
    config.variant = variant;
    config.threads = 1;
    config.stop.iterations = memcgs;
    config.params = {{"memcgs", memcgs}, {"file_ns", 0u}};
    config.executor = &sim;
    engine::SimulationScope scope(&sim);
    const engine::WorkloadResult r = engine::find_workload("memory-stat-read").run(config, {});
    EXPECT_EQ(r.ops, memcgs);
    return {r.seconds, r.stats, *sim.stats().caches};
}

TEST(PercpuSimulation, MemoryStatBeforeV66ReadsEveryPossibleCpusCountersFromMemory) {
    const StatRead v65 = read_memory_stat("v6.5", 20);
    const StatRead v66 = read_memory_stat("v6.6", 20);
    // 19 items x 256 CPUs per file, on 7 lines of each CPU's memcg_vmstats_percpu (8 where the
    // 8-byte-aligned allocation straddles one more), cold on the first read of each memcg.
    EXPECT_EQ(v65.caches.percpu_accesses, 20u * 19 * 256);
    EXPECT_EQ(v66.caches.percpu_accesses, 0u);
    EXPECT_GE(v65.caches.memory, 20u * 7 * 256);
    EXPECT_LT(v66.caches.memory, 20u * 40);
    EXPECT_GT(v65.seconds, 5 * v66.seconds);
    EXPECT_EQ(v65.stats["files_read"], 20);
    EXPECT_EQ(v65.stats["flushes"], 0); // nothing updated: below the threshold
}

} // namespace
} // namespace hitmap::sim
