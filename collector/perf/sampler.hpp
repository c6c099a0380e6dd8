#pragma once
// Precise memory sampling for one thread, the "hardware" c2c source: Intel PEBS load-latency
// (cpu/mem-loads,ldlat=N/, plus cpu/mem-stores/ into the same ring) or AMD IBS op, each sample
// carrying the data address and a perf_mem_data_src; or Arm SPE, whose records arrive in an
// AUX area and are turned into the same samples. The record parsing and decoding it relies on
// are pure and live in sample_records.hpp, data_source.hpp, aux_records.hpp and spe_*.hpp.
#include "collector/perf/aux_area.hpp"
#include "collector/perf/data_source.hpp"
#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/perf/ring_buffer.hpp"
#include "collector/perf/sample_records.hpp"
#include "collector/perf/spe_data_source.hpp"
#include "collector/support/unique_fd.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sys/types.h>
#include <vector>

namespace hitmap::perf {

struct MemorySamplerOptions {
    pid_t tid = 0;                          // 0 = the calling thread
    std::uint64_t frequency_hz = 4000;      // per event, perf's default; SPE samples every
                                            // N operations instead (spe_pmu.hpp)
    std::uint16_t load_latency_cycles = 30; // Intel ldlat: faster loads are not sampled (c2c: 30)
    std::size_t ring_pages = 64;            // data pages, a power of two (SPE: at most 4)
    std::size_t aux_pages = 128;            // SPE's AUX area pages, a power of two
};

// What every sample records: IP|TID|TIME|ADDR|CPU|WEIGHT|DATA_SRC.
std::uint64_t memory_sample_type();

class MemorySampler {
public:
    // Opens disabled. Throws PerfUnsupported when `pmu` has no precise memory sampling, or the
    // decoded open error (see errors.hpp).
    explicit MemorySampler(const PmuCapabilities& pmu, MemorySamplerOptions options = {});

    void enable();
    void disable();

    // Samples written since the last drain; call often enough that the ring does not overflow
    // (overflow shows up as lost_samples; for SPE see spe_sample_batch()).
    SampleBatch drain();

    MemorySampling facility() const { return facility_; }

private:
    void open_intel(const PmuCapabilities& pmu, const MemorySamplerOptions& options);
    void open_amd(const PmuCapabilities& pmu, const MemorySamplerOptions& options);
    void open_arm(const PmuCapabilities& pmu, const MemorySamplerOptions& options);
    SampleBatch drain_spe();

    MemorySampling facility_ = MemorySampling::none;
    std::vector<support::UniqueFd> leaders_; // enabled and disabled together
    std::vector<support::UniqueFd> members_; // follow their leader
    std::optional<RingBuffer> ring_;
    std::optional<AuxArea> aux_; // SPE only; declared after ring_ so it is unmapped first
    SpeDataSourceEncoding spe_encoding_ = SpeDataSourceEncoding::unknown;
    bool enabled_ = false; // between enable() and disable()
};

} // namespace hitmap::perf
