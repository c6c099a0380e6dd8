#include "collector/sim/calibrator.hpp"

#include "collector/sim/errors.hpp"
#include "engine/locks/lock_clock.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::sim {

namespace {

// Runs the bodies on the calling thread with itself as the simulation: every probe is a timing
// point, nothing is scheduled.
class SegmentTimer final : public engine::Simulation, public engine::WorkerExecutor {
public:
    static constexpr std::size_t kMaxSamples = 1u << 16; // per segment: enough for a median

    double run(unsigned threads, const engine::StopCondition& stop, const engine::ThreadHooks&,
               const engine::ObjectRegistry&, const engine::WorkerPool::Body& body) override {
        if (threads != 1)
            throw CalibrationError("calibration runs one thread");
        std::atomic<bool> stop_flag{false};
        (void)stop;
        timing_ = true;
        last_ = engine::LockClock::now();
        const engine::LockClock::Ticks begin = last_;
        body(0, stop_flag);
        const engine::LockClock::Ticks end = end_.value_or(engine::LockClock::now());
        timing_ = false;
        total_ticks_ = end - begin;
        return 0;
    }
    void access(engine::ObjectId, engine::FieldId, engine::AccessKind kind, std::uint8_t,
                std::uint16_t, std::uint16_t site) override {
        if (!timing_)
            return;
        const engine::LockClock::Ticks now = engine::LockClock::now();
        const std::size_t key = std::size_t{last_site_} * kSiteSlots + site;
        ++counts_[key];
        if (samples_[key].size() < kMaxSamples)
            samples_[key].push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(
                now - last_, UINT32_MAX)));
        (kind == engine::AccessKind::rmw || kind == engine::AccessKind::cas ? atomics_ : plain_)++;
        last_site_ = site;
        last_ = now;
    }
    void wait_for_write(engine::ObjectId, engine::FieldId, std::uint8_t, std::uint16_t) override {
        throw CalibrationError("a single calibration thread waited for a lock: the workload "
                               "cannot be calibrated");
    }
    std::uint64_t now_ns() const override { return 0; }
    unsigned cpu() const override { return 0; }
    void end_measurement() override {
        if (timing_ && !end_)
            end_ = engine::LockClock::now();
        timing_ = false;
    }

    std::vector<std::vector<std::uint32_t>> samples_ =
        std::vector<std::vector<std::uint32_t>>(kSiteSlots * kSiteSlots);
    std::vector<std::uint64_t> counts_ = std::vector<std::uint64_t>(kSiteSlots * kSiteSlots);
    std::uint64_t plain_ = 0, atomics_ = 0;
    std::uint64_t total_ticks_ = 0;

private:
    bool timing_ = false;
    engine::LockClock::Ticks last_ = 0;
    std::optional<engine::LockClock::Ticks> end_;
    std::uint16_t last_site_ = kStartSite;
};

double median(std::vector<std::uint32_t>& v) {
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

} // namespace

Calibration measure_calibration(const engine::Workload& workload,
                                const engine::WorkloadRunConfig& config, const LatencyNs& host,
                                const CalibrationPlan& plan) {
    engine::WorkloadRunConfig run = config;
    run.threads = 1;
    run.stop = {};
    run.stop.iterations = plan.operations;
    run.trace = {};
    run.executor = nullptr;
    engine::LockClock::calibrate();

    std::vector<double> native_ns;
    for (unsigned i = 0; i < std::max(1u, plan.native_repeats); ++i) {
        const engine::WorkloadResult r = workload.run(run, {});
        native_ns.push_back(r.seconds * 1e9);
    }
    std::sort(native_ns.begin(), native_ns.end());
    const double native = native_ns[native_ns.size() / 2];

    SegmentTimer timer;
    run.executor = &timer;
    {
        const engine::SimulationScope scope(&timer);
        workload.run(run, {});
    }
    const double ns_per_tick =
        static_cast<double>(engine::LockClock::ns_between(0, std::uint64_t{1} << 32)) / 4294967296.0;
    const std::uint64_t accesses = timer.plain_ + timer.atomics_;
    if (accesses == 0)
        throw CalibrationError(fmt::format("{} made no probed accesses: nothing to calibrate",
                                           workload.info().name));

    std::vector<double> median_ns(kSiteSlots * kSiteSlots, -1.0);
    double sum_medians = 0;
    for (std::size_t k = 0; k < median_ns.size(); ++k)
        if (!timer.samples_[k].empty()) {
            median_ns[k] = median(timer.samples_[k]) * ns_per_tick;
            sum_medians += median_ns[k] * static_cast<double>(timer.counts_[k]);
        }
    const double hits_ns = static_cast<double>(timer.plain_) * host.l1_hit +
                           static_cast<double>(timer.atomics_) * host.atomic_hit;
    // sum over segments of (median - hook) + hits = native
    const double hook_ns = (sum_medians + hits_ns - native) / static_cast<double>(accesses);

    Calibration c;
    c.workload = workload.info().name;
    c.variant = config.variant;
    double work_ns = 0;
    unsigned clamped = 0;
    for (std::size_t k = 0; k < median_ns.size(); ++k)
        if (median_ns[k] >= 0) {
            const double ns = median_ns[k] - hook_ns;
            clamped += ns < 0;
            c.segment_ns[k] = std::max(0.0, ns);
            work_ns += c.segment_ns[k] * static_cast<double>(timer.counts_[k]);
        }
    c.default_ns = work_ns / static_cast<double>(accesses);
    const double ops = static_cast<double>(plan.operations);
    c.facts = {
        {"operations", plan.operations},
        {"native_ns_per_op", native / ops},
        {"timed_ns_per_op", static_cast<double>(timer.total_ticks_) * ns_per_tick / ops},
        {"accesses_per_op", static_cast<double>(accesses) / ops},
        {"hook_ns", hook_ns},
        {"segments_clamped_to_0", clamped},
        // What the calibration gives a 1-CPU simulation before any miss: the native figure
        // unless segments were clamped.
        {"modelled_ns_per_op", (work_ns + hits_ns) / ops},
        {"host_hit_ns", {{"l1_hit", host.l1_hit}, {"atomic_hit", host.atomic_hit}}},
        {"params", config.params},
    };
    return c;
}

} // namespace hitmap::sim
