#include "collector/run/hardware_c2c.hpp"

#include "collector/c2c/cost_model.hpp"
#include "collector/perf/errors.hpp"
#include "collector/run/placed_objects.hpp"
#include "collector/run/workload_outcome.hpp"

#include <chrono>
#include <condition_variable>
#include <fmt/format.h>

namespace hitmap::collector {

c2c::ClassCounts sample_counts(const perf::DataSource& s) {
    c2c::ClassCounts c;
    if (s.is_load()) {
        c.loads = 1;
        if (s.is_l1_hit() || s.is_lfb_hit())
            c.l1_hit = 1;
        else if (s.is_hitm())
            c.load_hitm = 1;
        else if (s.is_remote_hit() || s.is_local_peer() || s.is_remote_peer())
            c.clean_forward = 1;
        else if (s.is_local_dram() || s.is_remote_dram())
            c.cold = 1;
    } else if (s.is_store()) {
        // Precise stores say only L1 hit or miss: a miss has no class of the replay's (it may
        // be a HITM, a shared line's upgrade or a cold line), so it counts as a store alone.
        c.stores = 1;
        if (s.is_store_l1_hit())
            c.l1_hit = 1;
    }
    return c;
}

std::vector<c2c::AddressedSample> classify_samples(std::span<const perf::MemorySample> samples) {
    std::vector<c2c::AddressedSample> out;
    out.reserve(samples.size());
    for (const perf::MemorySample& m : samples) {
        c2c::ClassCounts counts = sample_counts(perf::decode_data_src(m.data_src));
        if (counts.loads)
            counts.stall_cycles = static_cast<double>(m.weight);
        out.push_back({m.addr, m.cpu, counts});
    }
    return out;
}

HardwareC2cResult hardware_c2c_result(std::span<const perf::MemorySample> samples,
                                      std::uint64_t lost_samples,
                                      const engine::WorkloadResult& result,
                                      perf::MemorySampling facility,
                                      const std::vector<std::string>& objects) {
    const std::vector<c2c::AddressedSample> classified = classify_samples(samples);
    HardwareC2cResult out;
    out.data.objects = result.objects.objects();
    std::vector<std::uint64_t> addresses = result.objects.addresses();
    if (!objects.empty()) {
        std::vector<std::uint64_t> sampled;
        for (const auto& s : classified)
            sampled.push_back(s.address);
        engine::ObjectId next = 0;
        for (const engine::ObjectInfo& o : out.data.objects)
            next = std::max<engine::ObjectId>(next, o.id + 1);
        for (perfc2c::PlacedLayout& p :
             place_objects(objects, SymbolSource::this_machine(), sampled)) {
            addresses.resize(next + 1, 0);
            addresses[next] = p.base;
            out.data.objects.push_back({next++, p.name.value_or(""), std::move(p.layout),
                                        static_cast<std::uint32_t>(p.base % 64)});
            if (p.own_type)
                out.types.push_back(std::move(p.own_type));
        }
    }
    c2c::SampleAttribution a = c2c::attribute_samples(classified, out.data.objects, addresses, 64);
    store::TraceInfo& t = out.data.trace;
    t.format = fmt::format("perf-samples:{}", perf::to_string(facility));
    t.threads = static_cast<std::uint32_t>(result.ops_per_thread.size());
    t.records = a.result.records;
    t.traced_ops = result.ops; // every operation ran while sampled
    t.dropped_records = lost_samples;
    t.clock = "sampled";
    t.cost_table = c2c::kSampleWeights;
    out.data.result = std::move(a.result);
    // A store sample says L1 hit or miss, not whose copy it took (sample_counts); no one counts
    // migrations. The cycles are the loads' measured latencies, the drops the samples lost.
    t.known.store_hitm = false;
    t.known.store_shared = false;
    t.known.invalidations = false;
    t.known.cpu_migrations = false;

    const auto measured = store::Source::measured;
    std::uint64_t loads = 0;
    double latency = 0;
    for (const auto& s : classified)
        if (s.counts.loads) {
            ++loads;
            latency += s.counts.stall_cycles;
        }
    out.metrics.push_back(metric("c2c.samples", double(samples.size()), "samples", measured));
    out.metrics.push_back(metric("c2c.lost_samples", double(lost_samples), "samples", measured));
    out.metrics.push_back(metric("c2c.unmapped_samples", double(a.unmapped), "samples", measured));
    out.metrics.push_back(metric("c2c.load_latency_mean",
                                 loads ? std::optional(latency / double(loads)) : std::nullopt,
                                 "cycles", measured));
    return out;
}

HardwareC2c::HardwareC2c(const perf::PmuCapabilities& pmu, unsigned threads,
                         perf::MemorySamplerOptions options)
    : pmu_(pmu)
    , options_(options)
    , samplers_(threads) {
    // Rings hold a few milliseconds of samples: emptied every 10 ms, they do not overflow at
    // perf's default 4 kHz per event.
    drainer_ = std::jthread([this](std::stop_token token) {
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock wait_lock(m);
        while (
            !cv.wait_for(wait_lock, token, std::chrono::milliseconds(10), [] { return false; })) {
            if (token.stop_requested())
                return;
            const std::scoped_lock lock(mutex_);
            for (auto& s : samplers_)
                if (s)
                    drain(*s);
        }
    });
}

HardwareC2c::~HardwareC2c() = default; // the jthread stops and joins the drainer

void HardwareC2c::drain(perf::MemorySampler& sampler) {
    perf::SampleBatch batch = sampler.drain();
    samples_.insert(samples_.end(), batch.samples.begin(), batch.samples.end());
    lost_ += batch.lost_samples;
}

engine::ThreadHooks HardwareC2c::hooks() {
    engine::ThreadHooks h;
    h.on_start = [this](unsigned slot) {
        // Opened in the worker: the sampler follows the calling thread (tid 0).
        try {
            perf::MemorySampler sampler(pmu_, options_);
            sampler.enable();
            const std::scoped_lock lock(mutex_);
            samplers_.at(slot).emplace(std::move(sampler));
        } catch (const perf::PerfError&) {
            const std::scoped_lock lock(mutex_);
            if (!failure_)
                failure_ = std::current_exception();
        }
    };
    h.on_stop = [this](unsigned slot) {
        const std::scoped_lock lock(mutex_);
        if (auto& s = samplers_.at(slot)) {
            s->disable();
            drain(*s);
            s.reset();
        }
    };
    return h;
}

HardwareC2cResult HardwareC2c::finish(const engine::WorkloadResult& result,
                                      const std::vector<std::string>& objects) {
    drainer_.request_stop();
    drainer_.join();
    const std::scoped_lock lock(mutex_);
    if (failure_)
        std::rethrow_exception(failure_);
    return hardware_c2c_result(samples_, lost_, result, pmu_.memory_sampling(), objects);
}

} // namespace hitmap::collector
