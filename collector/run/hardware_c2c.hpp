#pragma once
// The hardware c2c path of a run: each worker thread is sampled by the PMU's precise memory
// events (perf::MemorySampler) while it runs the charge path untraced; a drain thread empties
// the rings as they fill; afterwards the samples are classified like perf c2c and attributed
// to the probed objects' fields, filling the same tables as a software run.
#include "collector/c2c/sample_attribution.hpp"
#include "collector/perf/data_source.hpp"
#include "collector/perf/sampler.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"
#include "engine/runtime/worker_pool.hpp"
#include "engine/workloads/workload.hpp"

#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace hitmap::collector {

// A sample's data source as the replay's classes (perf c2c's counters, reference/c2c.md §2.3):
// loads or stores at 1; an L1 or fill-buffer hit as l1_hit, local or remote HITM as load_hitm,
// a clean line from another cache (remote hit, peer) as clean_forward, DRAM as cold.
c2c::ClassCounts sample_counts(const perf::DataSource& source);

// Classified and weighted samples (the weight, a load's latency in cycles, as its stall).
std::vector<c2c::AddressedSample> classify_samples(std::span<const perf::MemorySample> samples);

struct HardwareC2cResult {
    // The types of the --object layouts made for these samples: keep while `data` is used.
    std::vector<std::shared_ptr<const engine::StructType>> types;
    store::C2cData data;
    std::vector<store::Metric> metrics; // samples, lost, unmapped, mean load latency
};

// What finish() makes of the samples, for tests with synthetic ones. `objects` (--object specs)
// are placed after the workload's own, with the members the samples touched.
HardwareC2cResult hardware_c2c_result(std::span<const perf::MemorySample> samples,
                                      std::uint64_t lost_samples,
                                      const engine::WorkloadResult& result,
                                      perf::MemorySampling facility,
                                      const std::vector<std::string>& objects = {});

class HardwareC2c {
public:
    HardwareC2c(const perf::PmuCapabilities& pmu, unsigned threads,
                perf::MemorySamplerOptions options = {});
    ~HardwareC2c();
    HardwareC2c(const HardwareC2c&) = delete;
    HardwareC2c& operator=(const HardwareC2c&) = delete;

    // Hooks for engine::WorkerPool: open and enable a sampler in each worker, drain and close
    // it when the worker stops.
    engine::ThreadHooks hooks();

    // After the workload: stops draining and attributes everything sampled to `result`'s
    // objects. Throws the first sampler's open failure (perf::PerfError), if any.
    HardwareC2cResult finish(const engine::WorkloadResult& result,
                             const std::vector<std::string>& objects = {});

private:
    void drain(perf::MemorySampler& sampler); // with mutex_ held

    perf::PmuCapabilities pmu_;
    perf::MemorySamplerOptions options_;
    std::mutex mutex_;
    std::vector<std::optional<perf::MemorySampler>> samplers_; // by worker slot
    std::vector<perf::MemorySample> samples_;
    std::uint64_t lost_ = 0;
    std::exception_ptr failure_; // the first worker's sampler that did not open
    std::jthread drainer_;
};

} // namespace hitmap::collector
