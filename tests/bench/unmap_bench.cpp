// This host's kernel work per page of munmap(): an upper bound of res-counter-charge's `zap_ns`
// (engine/workloads/res_counter_charge.cpp), the work zap_pte_range() does between two pages'
// uncharges. It bounds and does not measure it: it also holds the TLB flush and the freeing of
// the pages, which 2.6.31 did after the last uncharge (docs/REPRODUCTION.md, seed 003).
//
// A task maps N anonymous pages, writes one byte to each (a fault apiece, outside the timing)
// and unmaps them: the time of munmap() over N is one page's share of clearing its pte, the rmap
// and memcg uncharge, the TLB flush and freeing the page. The fault side is reported beside it
// (it is part of seed 003's anchored `work_ns`, not of this figure).
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

namespace {

struct Mapping {
    std::size_t bytes;
    char* base;
    explicit Mapping(std::size_t n)
        : bytes(n)
        , base(static_cast<char*>(
              mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))) {
        if (base == MAP_FAILED)
            throw std::runtime_error("mmap failed");
    }
};

void BM_MunmapTouchedPages(benchmark::State& state) {
    const auto pages = static_cast<std::size_t>(state.range(0));
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    double fault_ns = 0;
    double unmap_ns = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        Mapping m(pages * page);
        for (std::size_t i = 0; i < pages; ++i)
            m.base[i * page] = 1;
        benchmark::ClobberMemory();
        const auto mapped = std::chrono::steady_clock::now();
        munmap(m.base, m.bytes);
        const auto end = std::chrono::steady_clock::now();
        state.SetIterationTime(std::chrono::duration<double>(end - mapped).count());
        unmap_ns += std::chrono::duration<double, std::nano>(end - mapped).count();
        fault_ns += std::chrono::duration<double, std::nano>(mapped - start).count();
    }
    const double n = static_cast<double>(state.iterations() * pages);
    state.SetItemsProcessed(static_cast<std::int64_t>(n));
    state.counters["unmap_ns_per_page"] = unmap_ns / n;
    state.counters["fault_ns_per_page"] = fault_ns / n;
}

} // namespace

// 64 pages: the task of seed 003's model (`inflight`); 8, one CONFIG_PREEMPT zap block; 1,024,
// one zap block without it.
BENCHMARK(BM_MunmapTouchedPages)->Arg(8)->Arg(64)->Arg(1024)->UseManualTime();

BENCHMARK_MAIN();
