#include "collector/run/kernel_locks.hpp"

#include "collector/analysis/kernel_locks_metric.hpp"
#include "collector/perf/errors.hpp"
#include "collector/perf/kernel_symbols.hpp"

#include <fmt/format.h>

namespace hitmap::collector {

KernelLockCollector::KernelLockCollector(unsigned threads)
    : tracers_(threads)
    , batches_(threads) {
    const perf::TracefsRoot tracefs = perf::ensure_tracefs();
    if (!tracefs.path) {
        reason_ = tracefs.reason;
        return;
    }
    try {
        begin_ = perf::read_tracepoint_format(*tracefs.path, "lock", "contention_begin");
        end_ = perf::read_tracepoint_format(*tracefs.path, "lock", "contention_end");
    } catch (const perf::PerfError& e) {
        reason_ = e.what();
    }
}

void KernelLockCollector::fail(std::string reason) {
    const std::lock_guard lock(mutex_);
    if (!reason_)
        reason_ = std::move(reason);
}

engine::ThreadHooks KernelLockCollector::hooks() {
    engine::ThreadHooks hooks;
    hooks.on_start = [this](unsigned slot) {
        if (!begin_ || !end_)
            return;
        try {
            tracers_[slot].emplace(*begin_, *end_);
            tracers_[slot]->enable();
        } catch (const perf::PerfError& e) {
            tracers_[slot].reset();
            fail(e.what());
        }
    };
    hooks.on_stop = [this](unsigned slot) {
        if (!tracers_[slot])
            return;
        try {
            tracers_[slot]->disable();
            batches_[slot] = tracers_[slot]->drain();
        } catch (const perf::PerfError& e) {
            fail(e.what());
        }
        tracers_[slot].reset();
    };
    return hooks;
}

std::optional<std::string> KernelLockCollector::unavailable_reason() const {
    const std::lock_guard lock(mutex_);
    return reason_;
}

perf::KernelLockSummary KernelLockCollector::summary() const {
    std::vector<perf::LockEvent> events;
    std::uint64_t lost = 0;
    for (const auto& batch : batches_) {
        events.insert(events.end(), batch.events.begin(), batch.events.end());
        lost += batch.lost_samples;
    }
    perf::KernelLockSummary summary = perf::summarize_lock_events(std::move(events));
    summary.lost_samples = lost;
    return summary;
}

locks::LockStatReport kernel_lock_report(const perf::KernelLockSummary& summary) {
    const perf::KernelSymbols symbols = perf::KernelSymbols::load();
    locks::LockStatReport report;
    report.format = locks::LockFormat::perf_lock_contention;
    report.caption = "kernel lock waits of the run's threads (lock:contention_begin/end)";
    if (summary.unpaired > 0 || summary.lost_samples > 0)
        report.notes.push_back(fmt::format("{} waits without a begin, {} samples lost",
                                           summary.unpaired, summary.lost_samples));
    for (const perf::KernelLockStat& s : summary.locks) {
        locks::LockClassStats c;
        c.key = locks::LockKey::lock_address;
        c.lock_address = s.lock_addr;
        c.name = symbols.describe(s.lock_addr).value_or(fmt::format("{:#018x}", s.lock_addr));
        c.lock_type = perf::lock_type_name(s.flags);
        c.source = locks::LockFormat::perf_lock_contention;
        locks::LockCounters counters;
        counters.contentions = s.contentions;
        counters.wait.min_ns = static_cast<std::int64_t>(s.wait_min_ns);
        counters.wait.max_ns = static_cast<std::int64_t>(s.wait_max_ns);
        counters.wait.total_ns = static_cast<std::int64_t>(s.wait_total_ns);
        counters.wait.avg_ns = static_cast<std::int64_t>(s.wait_total_ns / s.contentions);
        // The tracepoints fire only on waits: acquisitions, holds and bounces stay unknown.
        (c.lock_type->ends_with(":R") ? c.read : c.write) = counters;
        report.classes.push_back(std::move(c));
    }
    return report;
}

store::Metric kernel_locks_metric(const std::optional<std::string>& reason,
                                  const perf::KernelLockSummary& waits) {
    std::uint64_t contentions = 0;
    for (const auto& l : waits.locks)
        contentions += l.contentions;
    return analysis::kernel_locks_metric(reason, contentions);
}

} // namespace hitmap::collector
