#include "collector/sim/calibrator.hpp"

#include "collector/sim/errors.hpp"
#include "engine/locks/lock_clock.hpp"
#include "engine/runtime/busy_work.hpp"

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
    void access(engine::ObjectId, engine::FieldId, engine::AccessKind, std::uint8_t, std::uint16_t,
                std::uint16_t site) override {
        if (!timing_)
            return;
        const engine::LockClock::Ticks now = engine::LockClock::now();
        const std::size_t key = std::size_t{last_site_} * kSiteSlots + site;
        ++counts_[key];
        if (samples_[key].size() < kMaxSamples)
            samples_[key].push_back(
                static_cast<std::uint32_t>(std::min<std::uint64_t>(now - last_, UINT32_MAX)));
        ++accesses_;
        last_site_ = site;
        last_ = now;
    }
    void wait_for_write(engine::ObjectId, engine::FieldId, std::uint8_t, std::uint16_t) override {
        throw CalibrationError("a single calibration thread waited for a lock: the workload "
                               "cannot be calibrated");
    }
    void outside_work(std::chrono::nanoseconds) override {} // not the engine's: left out
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
    std::uint64_t accesses_ = 0;
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
                                const engine::WorkloadRunConfig& config,
                                const CalibrationPlan& plan) {
    engine::WorkloadRunConfig run = config;
    run.threads = 1;
    run.stop = {};
    run.stop.iterations = plan.operations;
    run.stop.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(plan.max_seconds));
    run.trace = {};
    run.executor = nullptr;
    engine::LockClock::calibrate();
    // Work the engine does not model costs its parameter in a simulation, not a measurement.
    const engine::BusyWork::Excluded without_outside_work;

    std::vector<double> native_ns_per_op;
    std::uint64_t operations = plan.operations;
    for (unsigned i = 0; i < std::max(1u, plan.native_repeats); ++i) {
        const engine::WorkloadResult r = workload.run(run, {});
        if (r.ops == 0)
            throw CalibrationError(fmt::format("{} {} did no operation in {} s",
                                               workload.info().name, config.variant,
                                               plan.max_seconds));
        native_ns_per_op.push_back(r.seconds * 1e9 / static_cast<double>(r.ops));
        operations = std::min(operations, r.ops);
    }
    // The fastest repeat: another process on this machine only ever adds time, and a median
    // of runs that were all slowed by one (a build on both CPUs) doubled a calibration.
    const auto [fastest, slowest] =
        std::minmax_element(native_ns_per_op.begin(), native_ns_per_op.end());
    const double native = *fastest * static_cast<double>(operations); // the timed run's ops

    SegmentTimer timer;
    run.stop = {};
    run.stop.iterations = operations;
    run.executor = &timer;
    {
        const engine::SimulationScope scope(&timer);
        workload.run(run, {});
    }
    const double ns_per_tick =
        static_cast<double>(engine::LockClock::ns_between(0, std::uint64_t{1} << 32)) /
        4294967296.0;
    const std::uint64_t accesses = timer.accesses_;
    if (accesses == 0)
        throw CalibrationError(
            fmt::format("{} made no probed accesses: nothing to calibrate", workload.info().name));

    std::vector<double> median_ns(kSiteSlots * kSiteSlots, -1.0);
    double sum_medians = 0;
    for (std::size_t k = 0; k < median_ns.size(); ++k)
        if (!timer.samples_[k].empty()) {
            median_ns[k] = median(timer.samples_[k]) * ns_per_tick;
            sum_medians += median_ns[k] * static_cast<double>(timer.counts_[k]);
        }
    const double hook_ns = (sum_medians - native) / static_cast<double>(accesses);

    Calibration c;
    c.workload = workload.info().name;
    c.variant = config.variant;
    double work_ns = 0;
    unsigned clamped = 0;
    for (std::size_t k = 0; k < median_ns.size(); ++k)
        if (median_ns[k] >= 0) {
            clamped += median_ns[k] < hook_ns;
            c.segment_ns[k] = std::max(0.0, median_ns[k] - hook_ns);
            work_ns += c.segment_ns[k] * static_cast<double>(timer.counts_[k]);
        }
    const double scale = work_ns > 0 ? native / work_ns : 1.0;
    for (double& ns : c.segment_ns)
        if (ns > 0)
            ns *= scale;
    c.default_ns = native / static_cast<double>(accesses);
    const double ops = static_cast<double>(operations);
    c.facts = {
        {"operations", operations},
        {"native_ns_per_op", native / ops},
        {"native_slowest_ns_per_op", *slowest},
        {"timed_ns_per_op", static_cast<double>(timer.total_ticks_) * ns_per_tick / ops},
        {"accesses_per_op", static_cast<double>(accesses) / ops},
        {"hook_ns", hook_ns},
        {"segments_below_hook", clamped},
        {"scale_after_clamp", scale},
        {"params", config.params},
    };
    return c;
}

} // namespace hitmap::sim
