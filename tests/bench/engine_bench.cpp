// The cost of the probes on the charge path: idle (tracing off), recording every access, and
// in a build with probes compiled out (scripts/bench-probes runs both builds and prints the
// ratios). Single thread, so the numbers measure the probes and not coherence traffic.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/memcg/charge_stock.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "engine/workloads/socket_charge_walk.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace hitmap::engine;

constexpr std::size_t kOpsPerIteration = 4096;
constexpr std::size_t kBufferRecords = std::size_t{1} << 24;

void charge_path(benchmark::State& state, bool traced, TraceClock clock = TraceClock::access) {
    ObjectRegistry registry;
    const Layout& layout = *find_builtin_layout("mem_cgroup", "v6.0");
    HierarchyConfig config;
    config.top_min = 16;
    config.top_low = 32;
    MemcgHierarchy tree(registry, layout, {ProtectionPropagation::always_exchange, false}, config);
    ChargeStock stock(registry, "stock/0", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 32);
    ChargeCounters counters;
    MemcgCharger charger(stock, counters);
    TraceBuffer buffer(traced ? kBufferRecords : 0, TraceBuffer::read_tsc(), {}, clock);
    ThreadTraceScope scope(traced ? &buffer : nullptr);
    SocketChargeWalk socket(charger, tree.leaf(), 8, 64, 0x9E3779B97F4A7C15ull);
    std::uint64_t ops = 0;
    std::uint64_t records = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < kOpsPerIteration; ++i) {
            // As the workload does: the probe-free copy unless tracing.
            if (traced)
                socket.step<true>();
            else
                socket.step<false>();
            if (traced)
                buffer.end_operation();
        }
        ops += kOpsPerIteration;
        if (traced && buffer.records().size() > kBufferRecords / 2) {
            state.PauseTiming();
            records += buffer.records().size();
            buffer.clear();
            state.ResumeTiming();
        }
    }
    records += buffer.records().size();
    state.SetItemsProcessed(static_cast<std::int64_t>(ops));
    if (traced)
        state.counters["records_per_op"] = static_cast<double>(records) / static_cast<double>(ops);
    state.counters["ns_per_op"] = benchmark::Counter(
        static_cast<double>(ops), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_ChargePath_ProbesIdle(benchmark::State& state) {
    charge_path(state, false);
}
BENCHMARK(BM_ChargePath_ProbesIdle);

#if HITMAP_PROBES
void BM_ChargePath_FullTracing(benchmark::State& state) {
    charge_path(state, true);
}
BENCHMARK(BM_ChargePath_FullTracing);

void BM_ChargePath_FullTracingOperationClock(benchmark::State& state) {
    charge_path(state, true, TraceClock::operation);
}
BENCHMARK(BM_ChargePath_FullTracingOperationClock);
#endif

} // namespace

BENCHMARK_MAIN();
