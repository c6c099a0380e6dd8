#pragma once
// What `hitmap-collect run` was asked to do, fully parsed and validated.
#include "collector/c2c/replay_result.hpp"
#include "engine/layout/layout.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::collector {

// What `--c2c` asked for; the run stores the source it got (store::C2cSource, c2c_choice.hpp).
// automatic: hardware sampling where the machine has it, else software;
// perf: perf's own `perf c2c record` around the workload (perf_c2c.hpp), never chosen by auto.
enum class C2cMode { off, automatic, software, hardware, perf };
// The mode --c2c names ("off", "auto", "software", "hardware", "perf"); nullopt for other text.
std::optional<C2cMode> c2c_mode_named(std::string_view name);
using c2c::ModelCpus;

// The perf tool `--c2c perf` and `record` run: a name looked up in PATH or a path (tests give
// a fake). `asker` begins perf's messages, naming what the user asked for.
struct PerfCommand {
    std::string program = "perf";
    std::string asker = "--c2c perf";
};

struct C2cOptions {
    C2cMode source = C2cMode::software;
    std::size_t trace_bytes_per_thread = std::size_t{64} << 20;
    engine::TraceWindow window;
    engine::TraceClock clock = engine::TraceClock::operation;
    ModelCpus model_cpus = ModelCpus::recorded;
    PerfCommand perf;
    // Software c2c writes the replayed trace beside the database, for `predict` and `optimize`
    // to replay again; false drops it once the run's cacheline tables are stored (a 1 s traced
    // run of a 2-thread workload leaves about 20 MB).
    bool keep_trace = true;
    // --object STRUCT@ADDR|SYMBOL[:LAYOUT] (placed_objects.hpp): structs of any BTF placed on
    // a hardware or perf capture beside the workload's own objects; symbols from this machine's
    // /proc/kallsyms.
    std::vector<std::string> objects;
};

// `run --simulate`: the workers run as virtual CPUs of a described machine (collector/sim/).
struct SimulateOptions {
    std::string machine; // a built-in name, "host", or a JSON description file
    std::optional<std::filesystem::path> calibration_file; // else measured per variant, here
    std::optional<std::filesystem::path> save_calibration; // write the calibrations used
    std::uint64_t calibration_ops = 200000;
    // A run whose key the calibration file lacks is measured here and added to the file,
    // instead of refused.
    bool calibrate_missing = false;
    // Every calibrated segment times this: the simulated machine's native speed, anchored to a
    // seed's baseline (reproduce); 1 runs at this host's speed.
    double native_scale = 1.0;
};

struct RunRequest {
    std::string workload;
    std::vector<std::string> variants;
    std::vector<unsigned> threads;
    engine::StopCondition stop;
    unsigned repeat = 1;
    nlohmann::json params = nlohmann::json::object();
    std::map<std::string, engine::Layout> layouts;
    C2cOptions c2c;
    bool kernel_locks = false; // trace the kernel's lock waits of the run's threads
    std::optional<SimulateOptions> simulate;
};

// One planned run: a combination of variant and thread count, and its repetition.
struct PlannedRun {
    std::string variant;
    unsigned threads = 1;
    unsigned repetition = 0;
};

std::vector<PlannedRun> plan_runs(const RunRequest& request);

} // namespace hitmap::collector
