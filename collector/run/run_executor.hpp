#pragma once
// Runs the planned combinations one by one: each run is registered as 'running' before the
// workload starts, then completed (ops, counters, c2c tables) in one transaction, so a crash
// leaves an incomplete run and never touches earlier ones.
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/run/progress.hpp"
#include "collector/run/run_request.hpp"
#include "collector/run/simulated_run.hpp"
#include "collector/run/software_c2c.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hitmap::store {
class Database;
}

namespace hitmap::collector {

struct RunSummary {
    std::int64_t run_id = 0;
    PlannedRun plan;
    std::uint64_t ops = 0;
    double seconds = 0;
    double ops_per_s = 0;
    bool ok = false;
    std::string error;                 // set when !ok
    std::optional<TraceCap> trace_cap; // the run stored less than it seems to
};

// A request RunExecutor::validate() accepted. execute() takes only these, so each request is
// checked once, before any database is opened (--c2c perf's probe alone takes about 1.4 s).
class ValidatedRequest {
public:
    const RunRequest& request() const { return request_; }

private:
    friend class RunExecutor;
    explicit ValidatedRequest(RunRequest request)
        : request_(std::move(request)) {}

    RunRequest request_;
};

class RunExecutor {
public:
    RunExecutor(store::Database& db, Progress& progress);

    // Throws when the request is invalid (workload, variant, parameter, layout, memory, the
    // PMU for --c2c hardware, perf's probe for --c2c perf). Needs no database: callers
    // validate before opening one, so bad input writes nothing.
    static ValidatedRequest validate(RunRequest request);

    // Failures during a run are stored on that run and returned, not thrown.
    std::vector<RunSummary> execute(const ValidatedRequest& validated);

private:
    RunSummary execute_one(const RunRequest& request, const PlannedRun& plan, std::size_t index,
                           std::size_t total);

    store::Database& db_;
    Progress& progress_;
    perf::PmuCapabilities pmu_;
    std::int64_t machine_id_ = 0;
    std::optional<SimulationSetup> simulation_; // set while a --simulate request executes
};

} // namespace hitmap::collector
