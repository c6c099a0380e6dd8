#pragma once
// A workload replays one upstream investigation on the engine. It has named variants
// (the configurations the investigation compared) and typed parameters with defaults.
#include "engine/layout/layout.hpp"
#include "engine/locks/lock_class_report.hpp"
#include "engine/probe/object_registry.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "engine/runtime/simulation.hpp"
#include "engine/runtime/worker_executor.hpp"
#include "engine/runtime/worker_pool.hpp"
#include "engine/workloads/investigation.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hitmap::engine {

// Unknown workload, variant or parameter, or a parameter value out of range.
class WorkloadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ParamSpec {
    std::string name;
    nlohmann::json default_value; // its type is the parameter's type
    std::string description;
    // A whole-number parameter's range, both ends allowed (resolve_params refuses the rest).
    // Workloads read them as unsigned, so no range reaches past its largest value.
    std::uint64_t min = 0;
    std::uint64_t max = std::numeric_limits<std::uint32_t>::max();
    // False for a parameter that cannot change what a calibration measures (work a simulation
    // spends in virtual time, BusyWork): calibrations are keyed without it and serve every
    // value of it.
    bool calibrated = true;
};

// Ranges that parameters of several workloads share.
inline constexpr std::uint64_t kMaxPages = std::uint64_t{1} << 30; // 4 TiB of 4 KiB pages
inline constexpr std::uint64_t kMaxWorkNs = 100'000'000;           // 0.1 s per operation

struct VariantSpec {
    std::string name;
    std::string description;
};

// Where the seed ran, as the simulator knows it: a built-in simulated machine (collector/sim/)
// and the CPU count the seed's figures are for, with the variants whose scaling curves tell
// its story.
struct SeedMachine {
    std::string machine;
    unsigned cpus = 0;
    std::vector<std::string> variants;
};

// What the investigation is about, for the views to open on it: the variant with the problem and
// the one that fixed it, the struct whose layout the fix changed and the field whose cacheline
// is the point (named as the workload's objects name their fields, e.g. a counter embedded in
// a bigger struct).
struct Story {
    std::string before;
    std::string after;
    std::string layout_struct; // one of WorkloadInfo::layout_structs
    std::string field;
};

struct WorkloadInfo {
    std::string name;
    std::string seed; // the investigation it replays, e.g. "001"
    std::string description;
    std::vector<VariantSpec> variants;
    std::vector<ParamSpec> params;
    // Its shared state lives in ProbedObjects, so software c2c can trace it. A workload that
    // only measures locks says false, and its runs are stored without cacheline data.
    bool probed = true;
    // The structs whose layout `--layout STRUCT=...` may replace; any other is refused.
    std::vector<std::string> layout_structs;
    // The investigation's machine, for the simulated scaling sweep of the default suite.
    std::optional<SeedMachine> seed_machine;
    // The fewest threads a run needs (a sender and a receiver make 2), and whether the count
    // must be even (pairs).
    unsigned min_threads = 1;
    bool even_threads = false;
    // Parameters a calibration runs with instead of the run's: a calibrated segment must hold
    // cache hits only, so a workload whose data outgrows the host's caches shrinks it here.
    nlohmann::json calibration_params = nlohmann::json::object();
    // The seed's tables, for `reproduce` (on one workload of each investigation).
    std::optional<Investigation> investigation;
    // What the app, its screenshots and `make run` open on; the first registered workload
    // with a story and runs of it is the one shown.
    std::optional<Story> story;
};

struct TraceOptions {
    bool enabled = false;
    std::size_t records_per_thread = 0;
    TraceWindow window;
    TraceClock clock = TraceClock::operation;
};

struct WorkloadRunConfig {
    std::string variant;
    unsigned threads = 1;
    StopCondition stop;
    nlohmann::json params = nlohmann::json::object(); // overrides of the defaults
    std::map<std::string, Layout> layouts;            // struct name -> layout override
    TraceOptions trace;
    // Null: real threads. Otherwise the executor (a simulated machine) runs the workers.
    WorkerExecutor* executor = nullptr;
};

struct ThreadTrace {
    unsigned thread = 0;
    std::unique_ptr<TraceBuffer> buffer;
};

struct WorkloadResult {
    std::uint64_t ops = 0;
    double seconds = 0;
    std::vector<std::uint64_t> ops_per_thread;
    nlohmann::json resolved_params; // every parameter, defaults filled in, layouts named
    nlohmann::json stats;           // workload-specific counters (stock hits, failures, ...)
    ObjectRegistry objects;
    std::vector<ThreadTrace> traces;    // empty unless tracing was on
    std::vector<LockClassReport> locks; // the instrumented lock classes the workload used
};

class Workload {
public:
    virtual ~Workload() = default;
    virtual const WorkloadInfo& info() const = 0;
    // Throws WorkloadError before any work if the variant or a parameter is invalid.
    virtual void validate(const WorkloadRunConfig& config) const;
    virtual WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const = 0;

protected:
    // Defaults overlaid with config.params; unknown names and type mismatches throw.
    nlohmann::json resolve_params(const WorkloadRunConfig& config) const;
    // Whether the calling worker must run the probed copy of the charge path: it traces, or a
    // simulation needs every access.
    static bool probes_wanted(const TraceBuffer* trace) {
        return trace != nullptr || current_simulation() != nullptr;
    }
    // A worker: runs slot `slot` until `stop` or the run's iterations with `trace` (null when
    // untraced) installed, and returns the operations it counted.
    using WorkerBody =
        std::function<std::uint64_t(unsigned slot, const std::atomic<bool>& stop, TraceBuffer*)>;
    // The run's workers on config.executor, or on real threads: fills result.traces (when
    // tracing), result.ops_per_thread and result.seconds.
    static void run_workers(const WorkloadRunConfig& config, const ThreadHooks& hooks,
                            WorkloadResult& result, const WorkerBody& body);
    // A worker's counted operations: step(std::true_type{}) (the probed copy) when this
    // worker is traced or simulated, else step(std::false_type{}), until the run's iterations or
    // its stop flag. Returns the operations done.
    template <typename Step>
    static std::uint64_t counted_loop(const WorkloadRunConfig& config,
                                      const std::atomic<bool>& stop, TraceBuffer* trace,
                                      Step&& step) {
        const std::uint64_t limit = config.stop.iterations.value_or(UINT64_MAX);
        const bool probed = probes_wanted(trace);
        std::uint64_t ops = 0;
        while (ops < limit) {
            if ((ops & 63) == 0 && stop.load(std::memory_order_relaxed))
                break;
            if (probed)
                step(std::true_type{});
            else
                step(std::false_type{});
            ++ops;
            if (trace)
                trace->end_operation();
        }
        return ops;
    }
    // The rest of a worker's body is clean-up outside the counted operations: nothing is traced,
    // and a simulation stops counting this virtual CPU's accesses.
    class OutsideMeasurement {
    public:
        OutsideMeasurement() {
            if (Simulation* sim = current_simulation())
                sim->end_measurement();
        }

    private:
        ThreadTraceScope untraced_{nullptr};
    };
};

// The built-ins, then the workloads plugins added, in the order they were added.
const std::vector<const Workload*>& all_workloads();
const Workload& find_workload(std::string_view name); // throws WorkloadError
// A plugin's workload, which must outlive every run (a static of the plugin). Throws
// WorkloadError when its name is taken or it has no variants. Before any run starts only.
void add_workload(const Workload& workload);

} // namespace hitmap::engine
