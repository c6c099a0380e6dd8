#pragma once
// Plain values read from and written to the store.
#include "collector/store/machine_info.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::store {

// abandoned: stored as running by a process that is gone (detected when the store is read).
enum class RunStatus { running, complete, failed, cancelled, abandoned };

// The text stored in run.status.
std::string_view to_string(RunStatus status);
// Throws std::invalid_argument for text that names no status.
RunStatus parse_run_status(std::string_view text);

// Where a number came from (schemas/migrations/0005_provenance.sql). A run's source is that of
// its throughput; a metric's may differ (software c2c counts of a traced run are `replayed`).
// Numbers of different sources are never pooled in one statistic.
enum class Source { measured, traced, replayed, simulated, predicted, imported };

std::string_view to_string(Source source);
Source parse_source(std::string_view text);

// Where a run's cacheline tables came from (run.c2c_source); a run without them has none.
enum class C2cSource {
    software,  // the probe trace replayed through the coherence model (`run --c2c software`)
    hardware,  // the PMU's precise memory samples, attributed by hitmap (`run --c2c hardware`)
    perf,      // perf c2c record around the run, its report read (`run --c2c perf`, `record`)
    perf_c2c,  // an imported `perf c2c report` text (`import perf-c2c`)
    simulated, // the simulation's coherence model (`run --simulate`, `predict --machine`)
    predicted, // another run's trace replayed under other layouts (`predict`)
};

// The text stored in run.c2c_source: "software", "hardware", "perf", "perf-c2c", "simulated",
// "predicted" (as when the column held free text, so older databases read the same).
std::string_view to_string(C2cSource source);
C2cSource parse_c2c_source(std::string_view text);
// The stored text of a run's source; nullopt for a run without cacheline tables.
std::optional<std::string> c2c_source_text(const std::optional<C2cSource>& source);

struct MachineRecord {
    std::int64_t id = 0;
    MachineInfo info{};
    std::string pmu_json{};
    std::string first_seen{}; // ISO-8601 UTC
    bool operator==(const MachineRecord&) const = default;
};

struct RunRecord {
    std::int64_t id = 0; // assigned by begin_run
    std::int64_t machine_id = 0;
    std::string workload{};
    std::string variant{};
    std::string params_json = "{}";
    Source source = Source::measured;   // of ops, ops_per_s and duration
    std::optional<int> threads{};       // nullopt: the source did not say (imports)
    std::optional<double> duration_s{}; // nullopt: unknown (imports, predictions)
    std::optional<std::int64_t> ops{};
    std::optional<double> ops_per_s{};
    RunStatus status = RunStatus::running;
    std::optional<C2cSource> c2c_source{};   // of the cacheline tables; none without them
    std::optional<std::string> c2c_reason{}; // why that source, or why there is none
    std::string started_at{};                // ISO-8601 UTC, stamped by begin_run
    std::optional<std::string> finished_at{};
    std::optional<std::string> note{};
    std::optional<std::int64_t> predicted_from{}; // the run whose trace a prediction replayed
    // Read only: the machine of a simulated run (its run_simulation row), else nullopt.
    std::optional<std::string> simulated_machine{};
    bool operator==(const RunRecord&) const = default;
};

struct Metric {
    std::string name{};
    std::optional<double> value{};
    std::string unit{};
    bool available = true;
    std::optional<std::string> reason{}; // why an unavailable metric could not be measured
    Source source = Source::measured;
    std::optional<bool> scaled{}; // counters: multiplexed, value extrapolated; else nullopt
    bool operator==(const Metric&) const = default;
};

struct RunOutcome {
    RunStatus status = RunStatus::complete; // anything but running
    std::optional<std::int64_t> ops{};
    std::optional<double> ops_per_s{};
    std::optional<double> duration_s{};
    std::vector<Metric> metrics{};
    std::optional<std::string> note{}; // replaces the run's note when present
    // Replaces the run's params_json when present: the parameters as the run resolved them.
    std::optional<std::string> params_json{};
};

// Every criterion that is set must match; an unset one matches everything.
struct RunFilter {
    std::optional<std::string> workload{};
    std::optional<std::string> variant{};
    std::optional<RunStatus> status{};
    std::optional<std::vector<std::int64_t>> ids{};
    // Runs with an object recorded under one of these layouts (layout_table.hpp's ids).
    std::optional<std::vector<std::int64_t>> layout_ids{};
};

} // namespace hitmap::store
