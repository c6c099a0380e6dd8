// Replay throughput on a realistic trace, and memcpy of the same bytes in the same run, so the
// ratio is meaningful on any machine. Goal: >= 50 M records/s on one core.
//
// The trace models the memcg charge path at 2 threads: 10 objects on about 20 lines. Each operation
// consumes from the thread's private per-CPU stock and reads (shared, read-mostly) fields of
// another cgroup; every 16th operation refills the stock by walking the 3-level page_counter
// hierarchy (RMW usage, read limits, write watermark, follow parent, then read usage/high), which
// is where the transfers come from. Threads advance on their own jittered clocks, so the merged
// order interleaves in short runs as a real concurrent trace does.
#include "collector/c2c/replay.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <benchmark/benchmark.h>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <string>
#include <vector>

namespace {

using hitmap::engine::AccessKind;
using hitmap::engine::TraceRecord;
namespace pc = hitmap::engine::pc;
namespace stock = hitmap::engine::stock;

constexpr std::size_t kRecordsPerThread = 1 << 20;

struct Workload {
    std::vector<hitmap::engine::ObjectInfo> objects;
    std::vector<std::vector<TraceRecord>> streams;
    std::vector<hitmap::c2c::ThreadTrace> threads;
    std::size_t records = 0;
};

Workload make_workload() {
    using namespace hitmap;
    const engine::Layout& counter = *engine::find_builtin_layout("page_counter", "v6.0");
    const engine::Layout& pcp = *engine::find_builtin_layout("memcg_stock_pcp", "v5.10");
    Workload w;
    // 0..2: leaf/mid/top page_counters (shared); 3..4: per-thread stocks; 5..9: sibling
    // cgroups whose limits both threads read.
    for (std::uint16_t id = 0; id < 10; ++id)
        w.objects.push_back(engine::ObjectInfo{
            id, fmt::format("obj{}", id), id == 3 || id == 4 ? pcp : counter, (id * 24u) % 64});

    std::uint64_t seed = 7;
    const auto next = [&] {
        return (seed = seed * 6364136223846793005u + 1442695040888963407u) >> 33;
    };
    w.streams.resize(2);
    for (std::uint16_t t = 0; t < 2; ++t) {
        auto& s = w.streams[t];
        s.reserve(kRecordsPerThread);
        std::uint64_t tsc = t * 5;
        const auto add = [&](std::uint16_t object, std::uint8_t field, AccessKind kind) {
            tsc += 4 + next() % 12;
            const engine::Layout& l = w.objects[object].layout;
            s.push_back(TraceRecord::make(tsc, t, object, field, kind, 3,
                                          static_cast<std::uint16_t>(l.at(field).offset), 0));
        };
        for (std::uint64_t op = 0; s.size() + 32 < kRecordsPerThread; ++op) {
            const auto own_stock = static_cast<std::uint16_t>(3 + t);
            add(own_stock, stock::cached, AccessKind::load);
            add(own_stock, stock::nr_pages, AccessKind::load);
            add(own_stock, stock::nr_pages, AccessKind::store);
            const auto sibling = static_cast<std::uint16_t>(5 + op % 5);
            add(sibling, pc::high, AccessKind::load);
            add(sibling, pc::failcnt, AccessKind::load);
            if (op % 16 == 15) {
                for (std::uint16_t level = 0; level < 3; ++level) {
                    add(level, pc::usage, AccessKind::rmw);
                    add(level, pc::max, AccessKind::load);
                    add(level, pc::low, AccessKind::load);
                    add(level, pc::watermark, AccessKind::store);
                    add(level, pc::parent, AccessKind::load);
                }
                for (std::uint16_t level = 0; level < 3; ++level) {
                    add(level, pc::usage, AccessKind::load);
                    add(level, pc::high, AccessKind::load);
                }
                add(own_stock, stock::nr_pages, AccessKind::store);
            }
        }
        w.records += s.size();
    }
    for (std::uint32_t t = 0; t < 2; ++t)
        w.threads.push_back({t, w.streams[t]});
    return w;
}

const Workload& workload() {
    static const Workload w = make_workload();
    return w;
}

void set_rates(benchmark::State& state, std::size_t records) {
    const auto n = static_cast<std::int64_t>(records) * state.iterations();
    state.SetItemsProcessed(n);
    state.SetBytesProcessed(n * static_cast<std::int64_t>(sizeof(TraceRecord)));
}

void BM_Replay(benchmark::State& state) {
    const Workload& w = workload();
    hitmap::c2c::ReplayConfig config;
    config.model_cpus =
        state.range(0) ? hitmap::c2c::ModelCpus::thread : hitmap::c2c::ModelCpus::recorded;
    hitmap::c2c::ReplayResult result;
    for (auto _ : state) {
        result = hitmap::c2c::replay(w.threads, w.objects, config);
        benchmark::DoNotOptimize(result.totals.l1_hit);
    }
    set_rates(state, w.records);
    state.counters["lines"] = static_cast<double>(result.lines.size());
    state.counters["transfers_per_1k"] =
        static_cast<double>(result.totals.transfers()) * 1000.0 / static_cast<double>(w.records);
}
BENCHMARK(BM_Replay)->ArgName("thread_cpus")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The merge alone: the floor under replay, since every record passes through it.
void BM_Merge(benchmark::State& state) {
    const Workload& w = workload();
    const hitmap::c2c::TraceMerger merger(w.threads);
    for (auto _ : state) {
        std::uint64_t switches = 0;
        std::uint32_t last = 0;
        merger.merge([&](std::uint32_t stream, const TraceRecord&) {
            switches += stream != last;
            last = stream;
        });
        benchmark::DoNotOptimize(switches);
        state.counters["records_per_run"] =
            static_cast<double>(w.records) / static_cast<double>(switches + 1);
    }
    set_rates(state, w.records);
}
BENCHMARK(BM_Merge)->Unit(benchmark::kMillisecond);

void BM_Memcpy(benchmark::State& state) {
    const Workload& w = workload();
    std::vector<TraceRecord> out(w.records);
    for (auto _ : state) {
        std::size_t at = 0;
        for (const auto& s : w.streams) {
            std::memcpy(out.data() + at, s.data(), s.size() * sizeof(TraceRecord));
            at += s.size();
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_rates(state, w.records);
}
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond);

// Prints as usual and remembers items/s per benchmark, for the closing ratio line.
class RateReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& r : runs)
            if (auto it = r.counters.find("items_per_second"); it != r.counters.end())
                rates[r.benchmark_name()] = it->second.value;
    }
    std::map<std::string, double> rates;
};

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    RateReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const auto memcpy_rate = reporter.rates.find("BM_Memcpy");
    if (memcpy_rate != reporter.rates.end()) {
        for (const auto& [name, rate] : reporter.rates)
            if (name.starts_with("BM_Replay"))
                fmt::print("{}: {:.1f} M records/s = {:.4f} x memcpy ({:.1f} M records/s)\n", name,
                           rate / 1e6, rate / memcpy_rate->second, memcpy_rate->second / 1e6);
    }
    benchmark::Shutdown();
    return 0;
}
