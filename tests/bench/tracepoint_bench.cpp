// The lock tracepoints' formats through libtraceevent: parsing lock:contention_begin and
// lock:contention_end (once per `run --kernel-locks`), and reading a begin sample's lock_addr
// and flags from its raw payload (once per sample in the drain). The format files are this
// machine's kernel's (tests/perf/data).
#include "collector/perf/tracepoint_format.hpp"

#include <benchmark/benchmark.h>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace {

using namespace hitmap::perf;

std::string format_text(const char* name) {
    std::ifstream in(std::filesystem::path(HITMAP_PERF_TEST_DATA) / name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void BM_ParseLockFormats(benchmark::State& state) {
    const std::string begin = format_text("lock_contention_begin.format");
    const std::string end = format_text("lock_contention_end.format");
    for (auto _ : state) {
        benchmark::DoNotOptimize(parse_tracepoint_format(begin, "lock"));
        benchmark::DoNotOptimize(parse_tracepoint_format(end, "lock"));
    }
    state.SetItemsProcessed(state.iterations() * 2);
}
BENCHMARK(BM_ParseLockFormats);

void BM_ReadBeginSample(benchmark::State& state) {
    const TracepointFormat begin =
        parse_tracepoint_format(format_text("lock_contention_begin.format"), "lock");
    std::vector<std::byte> raw(20);
    const std::uint64_t addr = 0xffff888012345678;
    const std::uint32_t flags = 0x21;
    std::memcpy(raw.data() + 8, &addr, 8);
    std::memcpy(raw.data() + 16, &flags, 4);
    for (auto _ : state) {
        benchmark::DoNotOptimize(begin.read(raw, "lock_addr"));
        benchmark::DoNotOptimize(begin.read(raw, "flags"));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadBeginSample);

} // namespace

BENCHMARK_MAIN();
