#pragma once
// Runs one body per worker slot on threads pinned round-robin to the allowed CPUs, released
// together by a barrier, and measures the wall time between release and the last join.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace hitmap::engine {

struct StopCondition {
    std::optional<std::chrono::nanoseconds> duration;
    std::optional<std::uint64_t> iterations; // per thread
    // Set from outside (a signal handler) to end the run early.
    const std::atomic<bool>* cancel = nullptr;
};

// Called inside each worker thread, around its measured region (counters attach here).
struct ThreadHooks {
    std::function<void(unsigned slot)> on_start;
    std::function<void(unsigned slot)> on_stop;
};

std::vector<int> allowed_cpus();

class WorkerPool {
public:
    // body(slot, stop) runs until stop is set (duration) or its own iteration count.
    using Body = std::function<void(unsigned slot, const std::atomic<bool>& stop)>;

    // Returns the measured wall-clock seconds.
    static double run(unsigned threads, const StopCondition& stop, const ThreadHooks& hooks,
                      const Body& body);
};

} // namespace hitmap::engine
