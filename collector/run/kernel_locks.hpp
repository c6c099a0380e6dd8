#pragma once
// `run --kernel-locks`: the kernel's lock-wait tracepoints for every worker thread of a run.
// Each worker opens its tracer before the start barrier and drains it after its loop, as
// ThreadCounters does for counters. Whatever stops it (no tracefs, a kernel before 5.19, no
// privilege) becomes the reason the report shows instead of kernel lock rows; the run itself
// goes on.
#include "collector/locks/lock_stats.hpp"
#include "collector/perf/lock_contention_tracer.hpp"
#include "collector/store/records.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::collector {

class KernelLockCollector {
public:
    explicit KernelLockCollector(unsigned threads);

    engine::ThreadHooks hooks();

    // Set when no kernel lock data could be collected, in one line.
    std::optional<std::string> unavailable_reason() const;
    // The waits of every thread paired per lock, named from /proc/kallsyms where it resolves.
    perf::KernelLockSummary summary() const;

private:
    void fail(std::string reason);

    std::optional<perf::TracepointFormat> begin_;
    std::optional<perf::TracepointFormat> end_;
    std::vector<std::optional<perf::LockContentionTracer>> tracers_;
    std::vector<perf::LockEventBatch> batches_;
    mutable std::mutex mutex_; // guards reason_ (workers may fail at once)
    std::optional<std::string> reason_;
};

// The summary as a lock table (perf lock contention -l's key: one row per lock instance).
locks::LockStatReport kernel_lock_report(const perf::KernelLockSummary& summary);

// The run's kernel-locks metric (collector/analysis/kernel_locks_metric.hpp) for these waits.
store::Metric kernel_locks_metric(const std::optional<std::string>& unavailable_reason,
                                  const perf::KernelLockSummary& waits);

} // namespace hitmap::collector
