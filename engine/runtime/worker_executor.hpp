#pragma once
// Where a workload's worker bodies run. Real threads (WorkerPool) unless the caller hands the
// workload another executor: the simulator runs the same bodies as virtual CPUs on one host
// thread, so the workload does not know which machine it is on.
#include "engine/probe/object_registry.hpp"
#include "engine/runtime/worker_pool.hpp"

namespace hitmap::engine {

class WorkerExecutor {
public:
    virtual ~WorkerExecutor() = default;
    // Runs body(slot, stop) for slots 0..threads-1 under `stop` and returns the run's seconds
    // (wall clock on threads, virtual time on a simulated machine). `objects` are the probed
    // objects the bodies share, all registered by now.
    virtual double run(unsigned threads, const StopCondition& stop, const ThreadHooks& hooks,
                       const ObjectRegistry& objects, const WorkerPool::Body& body) = 0;
};

} // namespace hitmap::engine
