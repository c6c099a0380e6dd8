// Simulator speed (issue 11 acceptance 7): simulated accesses per second of host CPU time, and
// the same workload run natively untraced in the same process, so the slowdown ratio means
// something on any machine. Goals: >= 5 M simulated accesses/s on one host core; a 72-CPU,
// 1 M-operation page-counter-charge simulation in under a minute; memory bounded.
//
// The calibration is a fixed 2 ns per segment so the numbers do not depend on a calibration run;
// the simulator's own cost does not depend on the calibrated figures.
#include "collector/run/simulated_run.hpp"
#include "engine/workloads/workload.hpp"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

namespace {

using namespace hitmap;

engine::WorkloadRunConfig config_for(const std::string& variant, unsigned threads,
                                     std::uint64_t iterations) {
    engine::WorkloadRunConfig c;
    c.variant = variant;
    c.threads = threads;
    c.stop.iterations = iterations;
    return c;
}

double max_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Args: virtual CPUs, operations in total.
void BM_Simulate(benchmark::State& state) {
    const auto& workload = engine::find_workload("page-counter-charge");
    const auto threads = static_cast<unsigned>(state.range(0));
    const auto ops = static_cast<std::uint64_t>(state.range(1));
    const auto machine = sim::find_machine("xeon-2s-72");
    const auto calibration = sim::uniform_calibration(2.0);
    std::uint64_t accesses = 0, switches = 0;
    for (auto _ : state) {
        const auto run = collector::run_simulated(
            workload, config_for("v6.0", threads, ops / threads), machine, calibration);
        for (const auto& m : run.metrics) {
            if (m.name == "sim.accesses")
                accesses += static_cast<std::uint64_t>(*m.value);
            if (m.name == "sim.switches")
                switches += static_cast<std::uint64_t>(*m.value);
        }
    }
    state.counters["accesses_per_s"] =
        benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
    state.counters["switches_per_access"] =
        static_cast<double>(switches) / static_cast<double>(accesses);
    state.counters["ops_per_s"] = benchmark::Counter(static_cast<double>(ops * state.iterations()),
                                                     benchmark::Counter::kIsRate);
    state.counters["max_rss_MiB"] = max_rss_mib();
}
BENCHMARK(BM_Simulate)
    ->ArgNames({"cpus", "ops"})
    ->Args({2, 200000})
    ->Args({72, 200000})
    ->Args({72, 1000000})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime(); // rates per host-CPU second: the simulation is one thread

// The same operations on one real thread, untraced: the simulation's slowdown is the ratio of
// this ops_per_s to BM_Simulate's.
void BM_Native(benchmark::State& state) {
    const auto& workload = engine::find_workload("page-counter-charge");
    const auto ops = static_cast<std::uint64_t>(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(workload.run(config_for("v6.0", 1, ops), {}).ops);
    state.counters["ops_per_s"] = benchmark::Counter(static_cast<double>(ops * state.iterations()),
                                                     benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Native)
    ->ArgName("ops")
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime(); // the worker thread's time, not the benchmark thread's

} // namespace

BENCHMARK_MAIN();
