// This host's memory latency and memory-level parallelism, the two figures the simulated
// machines' finite caches price a miss with (collector/sim/machine_description.hpp: latency.dram
// and caches.outstanding_misses).
//
// Latency: a pointer chase through a random cycle of lines in a buffer far larger than the
// LLC, so every load waits for the one before. Gather: the same lines loaded through an index
// array, every load independent, as for_each_possible_cpu() sums a per-CPU counter. The
// chase's ns per line over the gather's is the number of misses the core keeps in flight.
#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr std::size_t kLine = 64;
constexpr std::size_t kLines = (std::size_t{1} << 30) / kLine; // 1 GiB

struct Buffer {
    std::vector<std::uint64_t> words = std::vector<std::uint64_t>(kLines * kLine / 8);
    std::vector<std::uint32_t> order = std::vector<std::uint32_t>(kLines);

    Buffer() {
        std::iota(order.begin(), order.end(), 0u);
        std::shuffle(order.begin(), order.end(), std::mt19937_64{42});
        // Line order[i] points at line order[i + 1]: one cycle through every line.
        for (std::size_t i = 0; i < kLines; ++i)
            words[order[i] * (kLine / 8)] = order[(i + 1) % kLines];
    }
};

Buffer& buffer() {
    static Buffer b;
    return b;
}

void BM_DramLatencyChase(benchmark::State& state) {
    const Buffer& b = buffer();
    std::uint64_t at = b.order.front();
    for (auto _ : state) {
        for (int i = 0; i < 1024; ++i)
            at = b.words[at * (kLine / 8)];
        benchmark::DoNotOptimize(at);
    }
    state.counters["ns_per_line"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * 1024,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DramLatencyChase)->Unit(benchmark::kMicrosecond);

void BM_IndependentGather(benchmark::State& state) {
    const Buffer& b = buffer();
    std::size_t next = 0;
    std::uint64_t sum = 0;
    for (auto _ : state) {
        for (int i = 0; i < 1024; ++i) {
            sum += b.words[b.order[next] * (kLine / 8) + 1];
            next = next + 1 == kLines ? 0 : next + 1;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["ns_per_line"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * 1024,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_IndependentGather)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
