#pragma once
// perf_event_open counters for every worker thread of a run: a group is opened inside each
// worker before the start barrier and read after its loop, then summed over the threads.
#include "collector/perf/counter_group.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace hitmap::collector {

class ThreadCounters {
public:
    explicit ThreadCounters(unsigned threads);

    // Hooks for engine::WorkerPool (called in the worker threads).
    engine::ThreadHooks hooks();

    // Summed over threads; a counter any thread could not open is unavailable, with the reason.
    std::vector<perf::CounterValue> totals() const;

private:
    std::vector<std::optional<perf::CounterGroup>> groups_;
    std::vector<std::vector<perf::CounterValue>> values_;
};

} // namespace hitmap::collector
