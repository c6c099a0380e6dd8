#include "collector/sim/calibrator.hpp"

#include "collector/sim/errors.hpp"
#include "collector/sim/fiber.hpp"
#include "engine/locks/lock_clock.hpp"
#include "engine/runtime/busy_work.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::sim {

namespace {

// Runs the bodies on the calling thread with itself as the simulation: every probe is a timing
// point, nothing is scheduled. Workers that need each other (a sender and a receiver) run as
// fibers taking turns: one runs until it must wait for another, and a worker's segments count
// only its own time, so every access is a hit of one core's caches, which is what a segment is
// meant to hold.
class SegmentTimer final : public engine::Simulation, public engine::WorkerExecutor {
public:
    static constexpr std::size_t kMaxSamples = 1u << 16; // per segment: enough for a median

    double run(unsigned threads, const engine::StopCondition& stop, const engine::ThreadHooks&,
               const engine::ObjectRegistry&, const engine::WorkerPool::Body& body) override {
        std::atomic<bool> stop_flag{false};
        (void)stop;
        workers_.assign(threads, Worker{});
        timing_ = true;
        const engine::LockClock::Ticks begin = engine::LockClock::now();
        if (threads == 1) {
            workers_[0].last = begin;
            body(0, stop_flag);
        } else {
            fibers_.clear();
            for (unsigned w = 0; w < threads; ++w)
                fibers_.push_back(std::make_unique<Fiber>([&, w] { body(w, stop_flag); }));
            for (bool any = true; any;) {
                any = false;
                for (unsigned w = 0; w < threads; ++w) {
                    if (fibers_[w]->finished())
                        continue;
                    any = true;
                    current_ = w;
                    workers_[w].last = engine::LockClock::now(); // its own time only
                    fibers_[w]->resume();
                }
            }
            fibers_.clear();
        }
        const engine::LockClock::Ticks end = end_.value_or(engine::LockClock::now());
        timing_ = false;
        total_ticks_ = end - begin;
        return 0;
    }
    void access(engine::ObjectId, engine::FieldId, engine::AccessKind, std::uint8_t, std::uint16_t,
                std::uint16_t site) override {
        if (!timing_)
            return;
        Worker& w = workers_[current_];
        const engine::LockClock::Ticks now = engine::LockClock::now();
        const std::size_t key = std::size_t{w.last_site} * kSiteSlots + site;
        ++counts_[key];
        if (samples_[key].size() < kMaxSamples)
            samples_[key].push_back(
                static_cast<std::uint32_t>(std::min<std::uint64_t>(now - w.last, UINT32_MAX)));
        ++accesses_;
        w.last_site = site;
        w.last = now;
    }
    void access_percpu(unsigned, std::uint32_t, engine::AccessKind kind, std::uint16_t site,
                       bool) override {
        access(0, 0, kind, 3, 0, site);
    }
    void wait_for_write(engine::ObjectId, engine::FieldId, std::uint8_t, std::uint16_t) override {
        if (workers_.size() < 2)
            throw CalibrationError("a single calibration thread waited for a lock: the workload "
                                   "cannot be calibrated");
        fibers_[current_]->suspend(); // the others run; then this one looks again
    }
    void outside_work(std::chrono::nanoseconds) override {} // not the engine's: left out
    std::uint64_t now_ns() const override { return 0; }
    unsigned cpu() const override { return current_; }
    void end_measurement() override {
        if (timing_ && !end_ && workers_.size() == 1)
            end_ = engine::LockClock::now();
    }
    std::vector<std::vector<std::uint32_t>> samples_ =
        std::vector<std::vector<std::uint32_t>>(kSiteSlots * kSiteSlots);
    std::vector<std::uint64_t> counts_ = std::vector<std::uint64_t>(kSiteSlots * kSiteSlots);
    std::uint64_t accesses_ = 0;
    std::uint64_t total_ticks_ = 0;

private:
    struct Worker {
        engine::LockClock::Ticks last = 0;
        std::uint16_t last_site = kStartSite;
    };
    bool timing_ = false;
    std::vector<Worker> workers_;
    std::vector<std::unique_ptr<Fiber>> fibers_;
    unsigned current_ = 0;
    std::optional<engine::LockClock::Ticks> end_;
};

// How long a native run may take to do its first operation before the workload is said to do
// none.
constexpr std::chrono::nanoseconds kNoOperationLimit = std::chrono::seconds(1);

double median(std::vector<std::uint32_t>& v) {
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

} // namespace

namespace {

// The cost of one timing point, measured alone: the median gap between consecutive timing
// points with nothing between them. For workers that run in pairs, whose native speed cannot be
// measured without the transfers between them that a segment must not hold.
double timing_point_ns(double ns_per_tick) {
    SegmentTimer probe;
    probe.run(1, {}, {}, engine::ObjectRegistry{}, [&](unsigned, const std::atomic<bool>&) {
        for (int i = 0; i < 20000; ++i)
            probe.access(0, 0, engine::AccessKind::load, 3, 0, 0);
    });
    std::vector<std::uint32_t> gaps = std::move(probe.samples_[0]); // site 0 -> site 0
    return median(gaps) * ns_per_tick;
}

} // namespace

Calibration measure_calibration(const engine::Workload& workload,
                                const engine::WorkloadRunConfig& config,
                                const CalibrationPlan& plan) {
    engine::WorkloadRunConfig run = config;
    run.params.update(workload.info().calibration_params);
    // A workload of pairs is calibrated with one pair, taking turns on this thread.
    run.threads = std::max(1u, workload.info().min_threads);
    const bool paired = run.threads > 1;
    run.stop = {};
    run.stop.iterations = plan.operations / run.threads;
    run.stop.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(paired ? plan.max_seconds : plan.native_seconds));
    run.trace = {};
    run.executor = nullptr;
    engine::LockClock::calibrate();
    const double ns_per_tick =
        static_cast<double>(engine::LockClock::ns_between(0, std::uint64_t{1} << 32)) /
        4294967296.0;
    // Work the engine does not model costs its parameter in a simulation, not a measurement.
    const engine::BusyWork::Excluded without_outside_work;

    std::vector<double> native_ns_per_op;
    std::uint64_t operations = *run.stop.iterations;
    for (unsigned i = 0; !paired && i < std::max(1u, plan.native_repeats); ++i) {
        // On a busy machine a short run may get no CPU before its time is up (two busy loops
        // beside a sanitizer build: one in six calibrations): such a run is done again with
        // twice the time, and only a workload that does no operation in a second fails.
        engine::WorkloadResult r = workload.run(run, {});
        for (auto limit = *run.stop.duration; r.ops == 0 && limit < kNoOperationLimit;) {
            limit *= 2;
            engine::WorkloadRunConfig longer = run;
            longer.stop.duration = limit;
            r = workload.run(longer, {});
        }
        if (r.ops == 0)
            throw CalibrationError(
                fmt::format("{} {} did no operation in {} s", workload.info().name, config.variant,
                            std::chrono::duration<double>(kNoOperationLimit).count()));
        native_ns_per_op.push_back(r.seconds * 1e9 / static_cast<double>(r.ops));
    }
    // The timed run does as many operations as max_seconds of native time hold.
    if (!native_ns_per_op.empty())
        operations = std::min<std::uint64_t>(
            operations, std::max<std::uint64_t>(1, static_cast<std::uint64_t>(
                                                       plan.max_seconds * 1e9 /
                                                       *std::min_element(native_ns_per_op.begin(),
                                                                         native_ns_per_op.end()))));

    SegmentTimer timer;
    run.stop = {};
    run.stop.iterations = operations;
    run.executor = &timer;
    std::uint64_t ops_done = 0;
    {
        const engine::SimulationScope scope(&timer);
        ops_done = workload.run(run, {}).ops;
    }
    const std::uint64_t accesses = timer.accesses_;
    if (accesses == 0 || ops_done == 0)
        throw CalibrationError(
            fmt::format("{} made no probed accesses: nothing to calibrate", workload.info().name));

    std::vector<double> median_ns(kSiteSlots * kSiteSlots, -1.0);
    double sum_medians = 0;
    for (std::size_t k = 0; k < median_ns.size(); ++k)
        if (!timer.samples_[k].empty()) {
            median_ns[k] = median(timer.samples_[k]) * ns_per_tick;
            sum_medians += median_ns[k] * static_cast<double>(timer.counts_[k]);
        }
    // One thread: the timing points' own cost is solved so that the segments add up to the
    // fastest untraced run (another process only ever adds time; a median of runs all slowed by
    // one doubled a calibration). Pairs: measured alone, and nothing is scaled.
    const double native =
        paired ? 0
               : *std::min_element(native_ns_per_op.begin(), native_ns_per_op.end()) *
                     static_cast<double>(operations);
    const double hook_ns = paired ? timing_point_ns(ns_per_tick)
                                  : (sum_medians - native) / static_cast<double>(accesses);

    Calibration c;
    c.workload = workload.info().name;
    c.variant = config.variant;
    c.params = calibration_key(workload.info(), config.params);
    c.build = HITMAP_BUILD;
    c.samples.assign(kSiteSlots * kSiteSlots, 0);
    double work_ns = 0;
    unsigned clamped = 0;
    for (std::size_t k = 0; k < median_ns.size(); ++k)
        if (median_ns[k] >= 0) {
            c.samples[k] = static_cast<std::uint32_t>(timer.samples_[k].size());
            clamped += median_ns[k] < hook_ns;
            c.segment_ns[k] = std::max(0.0, median_ns[k] - hook_ns);
            work_ns += c.segment_ns[k] * static_cast<double>(timer.counts_[k]);
        }
    const double scale = !paired && work_ns > 0 ? native / work_ns : 1.0;
    for (double& ns : c.segment_ns)
        if (ns > 0)
            ns *= scale;
    c.default_ns = work_ns * scale / static_cast<double>(accesses);
    const double ops = static_cast<double>(ops_done);
    c.facts = {
        {"operations", ops_done},
        {"workers", run.threads},
        {"timed_ns_per_op", static_cast<double>(timer.total_ticks_) * ns_per_tick / ops},
        {"accesses_per_op", static_cast<double>(accesses) / ops},
        {"hook_ns", hook_ns},
        {"segments_below_hook", clamped},
        {"scale_after_clamp", scale},
        {"params", config.params},
    };
    if (!paired) {
        const auto [fastest, slowest] =
            std::minmax_element(native_ns_per_op.begin(), native_ns_per_op.end());
        c.facts["native_ns_per_op"] = *fastest;
        c.facts["native_slowest_ns_per_op"] = *slowest;
    } else {
        c.facts["native_ns_per_op"] = nullptr; // pairs: not measurable without their transfers
    }
    return c;
}

} // namespace hitmap::sim
