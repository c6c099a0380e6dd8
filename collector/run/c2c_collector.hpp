#pragma once
// How a run gets its cacheline tables: one collector per c2c source (store::C2cSource). The
// software path replays the probes' traces, the hardware path samples this process's memory
// accesses, the perf path runs `perf c2c record` around the workload, a simulated run's tables
// come from its simulation, and a run without a source has none. The run executor treats them
// alike: hooks() on the workload's threads while it runs, stop() right after it, and, unless
// the run was cancelled, finish() with the tables, metrics and notes to store.
#include "collector/run/progress.hpp"
#include "collector/run/run_request.hpp"
#include "collector/run/software_c2c.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"
#include "engine/runtime/worker_pool.hpp"
#include "engine/workloads/workload.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::perf {
struct PmuCapabilities;
}

namespace hitmap::collector {

struct SimulatedRun;

// What a collector adds to a run: valid while the collector lives (the tables may point into
// types it made).
struct C2cOutcome {
    std::optional<store::C2cData> data;
    std::vector<store::Metric> metrics;
    std::optional<std::string> note;                  // the run's note, when it has one
    nlohmann::json params = nlohmann::json::object(); // added to the run's resolved parameters
    std::optional<TraceCap> trace_cap; // the trace buffer filled before half of the run
};

class C2cCollector {
public:
    virtual ~C2cCollector() = default;
    // Hooks on the workload's threads while it runs; none for most sources.
    virtual std::optional<engine::ThreadHooks> hooks() { return std::nullopt; }
    // Right after the workload, cancelled or not: what must end with it.
    virtual void stop(Progress&) {}
    // After a run that was not cancelled: its tables, metrics and notes.
    virtual C2cOutcome finish(engine::WorkloadResult& result, Progress& progress) = 0;
};

// What the collectors of a real-thread run need to know of it.
struct C2cRunContext {
    const RunRequest& request;
    const perf::PmuCapabilities& pmu;
    unsigned threads = 1;
    std::filesystem::path db_path; // the software path keeps its trace beside it
    std::int64_t run_id = 0;
};

// The collector of a run on real threads with `source` (nullopt: none). The perf path starts
// `perf c2c record` here, so that it records the whole workload.
std::unique_ptr<C2cCollector> c2c_collector(const std::optional<store::C2cSource>& source,
                                            const C2cRunContext& run, Progress& progress);

// A simulated run's: where its virtual time went, and its tables when `tables` (the run asked
// for c2c data).
std::unique_ptr<C2cCollector> simulated_c2c_collector(SimulatedRun& run, bool tables);

} // namespace hitmap::collector
