#include "collector/run/c2c_collector.hpp"

#include "collector/run/cancel.hpp"
#include "collector/run/hardware_c2c.hpp"
#include "collector/run/perf_c2c.hpp"
#include "collector/run/perf_recording.hpp"
#include "collector/run/simulated_run.hpp"
#include "collector/run/workload_outcome.hpp"

namespace hitmap::collector {

namespace {

class NoC2c final : public C2cCollector {
public:
    C2cOutcome finish(engine::WorkloadResult&, Progress&) override { return {}; }
};

// The probes' traces replayed through the coherence model; the trace kept beside the database.
class SoftwareC2c final : public C2cCollector {
public:
    explicit SoftwareC2c(const C2cRunContext& run)
        : options_(run.request.c2c)
        , db_path_(run.db_path)
        , run_id_(run.run_id) {}

    C2cOutcome finish(engine::WorkloadResult& result, Progress& progress) override {
        C2cOutcome out;
        if (result.traces.empty()) // a workload without probes
            return out;
        progress.update(0.92, "replaying trace");
        const store::TraceInfo& trace =
            out.data.emplace(analyse_software_c2c(result, options_, db_path_, run_id_)).trace;
        const auto replayed = store::Source::replayed;
        out.metrics.push_back(metric("c2c.records", double(trace.records), "records", replayed));
        out.metrics.push_back(metric("c2c.traced_ops", double(trace.traced_ops), "ops", replayed));
        out.metrics.push_back(
            metric("c2c.dropped_records", double(trace.dropped_records), "records", replayed));
        out.trace_cap = trace_cap(result, trace, options_);
        return out;
    }

private:
    C2cOptions options_;
    std::filesystem::path db_path_;
    std::int64_t run_id_;
};

// This process's memory accesses sampled by the PMU in every worker.
class HardwareC2cCollector final : public C2cCollector {
public:
    explicit HardwareC2cCollector(const C2cRunContext& run)
        : sampler_(run.pmu, run.threads)
        , objects_(run.request.c2c.objects) {}

    std::optional<engine::ThreadHooks> hooks() override { return sampler_.hooks(); }

    C2cOutcome finish(engine::WorkloadResult& result, Progress& progress) override {
        progress.update(0.92, "attributing samples");
        finished_ = sampler_.finish(result, objects_);
        C2cOutcome out;
        out.data = std::move(finished_.data);
        out.metrics = std::move(finished_.metrics);
        return out;
    }

private:
    HardwareC2c sampler_;
    std::vector<std::string> objects_;
    HardwareC2cResult finished_; // its types outlive the tables
};

// `perf c2c record` around the workload, its report imported with the run's objects placed.
class PerfC2cCollector final : public C2cCollector {
public:
    PerfC2cCollector(const C2cRunContext& run, Progress& progress)
        : objects_(run.request.c2c.objects) {
        progress.update(0.0, "starting perf c2c record");
        recording_.emplace(run.request.c2c.perf);
    }

    // A cancelled run keeps no report: perf is stopped with the recording's files.
    void stop(Progress& progress) override {
        if (cancel_requested().load())
            return;
        progress.update(0.92, "perf c2c report");
        recording_->stop();
        report_ = recording_->report(cancel_requested());
    }

    C2cOutcome finish(engine::WorkloadResult& result, Progress&) override {
        C2cOutcome out;
        if (!report_)
            return out;
        imported_ = perf_c2c_tables(read_perf_c2c_report(*report_), result, objects_);
        if (imported_->data)
            out.data = std::move(*imported_->data);
        out.metrics = std::move(imported_->metrics);
        // Symbols and source lines of each line's accesses, as an import keeps them.
        out.params["perf_c2c_code"] = std::move(imported_->code);
        out.note = report_notes(imported_->notes);
        return out;
    }

private:
    std::vector<std::string> objects_;
    std::optional<PerfC2cRecording> recording_; // its files go with it, also on failure
    std::optional<std::string> report_;
    std::optional<perfc2c::ImportedC2c> imported_; // its synthesized types outlive the tables
};

class SimulatedC2c final : public C2cCollector {
public:
    SimulatedC2c(SimulatedRun& run, bool tables)
        : run_(run)
        , tables_(tables) {}

    C2cOutcome finish(engine::WorkloadResult&, Progress&) override {
        C2cOutcome out;
        if (tables_)
            out.data = std::move(run_.c2c);
        out.metrics = std::move(run_.metrics);
        return out;
    }

private:
    SimulatedRun& run_;
    bool tables_;
};

} // namespace

std::unique_ptr<C2cCollector> c2c_collector(const std::optional<store::C2cSource>& source,
                                            const C2cRunContext& run, Progress& progress) {
    if (!source)
        return std::make_unique<NoC2c>();
    switch (*source) {
    case store::C2cSource::software:
        return std::make_unique<SoftwareC2c>(run);
    case store::C2cSource::hardware:
        return std::make_unique<HardwareC2cCollector>(run);
    case store::C2cSource::perf:
        return std::make_unique<PerfC2cCollector>(run, progress);
    case store::C2cSource::perf_c2c:  // imported
    case store::C2cSource::simulated: // simulated_c2c_collector
    case store::C2cSource::predicted: // replayed by predict
        break;
    }
    return std::make_unique<NoC2c>();
}

std::unique_ptr<C2cCollector> simulated_c2c_collector(SimulatedRun& run, bool tables) {
    return std::make_unique<SimulatedC2c>(run, tables);
}

} // namespace hitmap::collector
