#pragma once
// Who runs a workload's worker bodies: real threads (WorkerPool, the default) or a simulated
// machine's virtual CPUs. A workload hands its bodies to Workload::run_workers and does not
// know which one ran them.
#include "engine/runtime/worker_pool.hpp"

namespace hitmap::engine {

class WorkerExecutor {
public:
    virtual ~WorkerExecutor() = default;
    // Runs body(slot, stop) once per slot; returns the seconds from the first start to the last
    // end, in the executor's time (wall clock, or virtual time).
    virtual double run(unsigned threads, const StopCondition& stop, const ThreadHooks& hooks,
                       const WorkerPool::Body& body) const = 0;
};

} // namespace hitmap::engine
