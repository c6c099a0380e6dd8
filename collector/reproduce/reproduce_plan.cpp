#include "collector/reproduce/reproduce_plan.hpp"

#include "collector/run/simulated_run.hpp"
#include "collector/support/enum_names.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hitmap::collector {

namespace {

// Calibrations measure each segment's native cost; --quick measures fewer operations.
constexpr std::uint64_t kQuickCalibrationOps = 50000;

bool cause_needs_c2c(const engine::SeedTable& table) {
    return table.cause.kind == engine::CauseKind::hottest_line ||
           table.cause.kind == engine::CauseKind::field_line;
}

// Every CPU this machine allows the run, rounded as the workload needs.
unsigned host_threads(const engine::WorkloadInfo& info) {
    auto n = std::max<unsigned>(std::max(1u, info.min_threads),
                                static_cast<unsigned>(engine::allowed_cpus().size()));
    if (info.even_threads)
        n -= n % 2;
    return n;
}

RunRequest request_for(const engine::WorkloadInfo& owner, const engine::RowRun& run,
                       RowSource source, const engine::SeedTable& table,
                       const ReproduceOptions& options) {
    RunRequest r;
    r.workload = run.workload.empty() ? owner.name : run.workload;
    const engine::WorkloadInfo& info = engine::find_workload(r.workload).info();
    r.variants = {run.variant};
    r.threads = {run.threads != 0 ? run.threads : host_threads(info)};
    r.params = run.params;
    const std::uint64_t iterations = options.quick ? run.quick_iterations : run.iterations;
    const std::uint64_t duration_us = options.quick ? run.quick_duration_us : run.duration_us;
    if (iterations != 0)
        r.stop.iterations = iterations;
    else
        r.stop.duration = std::chrono::microseconds(duration_us);
    switch (source) {
    case RowSource::measured:
        r.c2c.source = C2cMode::off; // ops/s untraced: tracing slows a run about 3x
        r.repeat = options.measured_repeats;
        break;
    case RowSource::traced:
        r.c2c.source = C2cMode::software;
        if (r.stop.iterations)
            r.stop.iterations = std::min<std::uint64_t>(*r.stop.iterations, run.quick_iterations);
        break;
    case RowSource::simulated:
    case RowSource::unscaled:
        // Calibrations added to a folder are kept: they are measured at full length.
        r.simulate = SimulateOptions{
            table.machine, std::nullopt, std::nullopt,
            options.quick && !options.calibrate_missing ? kQuickCalibrationOps : 200000,
            options.calibrate_missing};
        if (!options.calibrations.empty())
            r.simulate->calibration_file = options.calibrations / (r.workload + ".json");
        break;
    }
    return r;
}

} // namespace

std::filesystem::path committed_calibrations() {
    return reference_calibration_dir() / "reproduce";
}

std::vector<const engine::WorkloadInfo*> investigations() {
    std::vector<const engine::WorkloadInfo*> out;
    for (const engine::Workload* w : engine::all_workloads())
        if (w->info().investigation)
            out.push_back(&w->info());
    return out;
}

const engine::WorkloadInfo& find_investigation(const std::string& id) {
    std::vector<std::string> ids;
    for (const engine::WorkloadInfo* w : investigations()) {
        if (w->investigation->id == id)
            return *w;
        ids.push_back(w->investigation->id);
    }
    throw engine::WorkloadError(
        fmt::format("unknown investigation '{}'; known: {}, all", id, fmt::join(ids, ", ")));
}

std::string_view to_string(RowSource source) {
    static constexpr std::array<support::EnumName<RowSource>, 4> names{{
        {RowSource::measured, "measured"},
        {RowSource::traced, "traced"},
        {RowSource::simulated, "simulated"},
        {RowSource::unscaled, "simulated at this host's native speed"},
    }};
    return support::name_of(names, source);
}

std::vector<PlannedRowRun> plan_reproduction(const engine::WorkloadInfo& workload,
                                             const ReproduceOptions& options) {
    std::vector<PlannedRowRun> plan;
    const engine::Investigation& inv = *workload.investigation;
    // The native-scale anchor's row runs first, unscaled: its figure sets the scale of every
    // simulated run after it.
    for (const engine::Anchor& a : inv.anchors)
        if (a.kind == engine::Anchor::Kind::native_scale && options.simulate) {
            const engine::SeedTable& table = inv.tables.at(a.table);
            plan.push_back({a.table, a.row, RowSource::unscaled,
                            request_for(workload, *table.rows.at(a.row).simulated,
                                        RowSource::unscaled, table, options)});
        }
    for (unsigned t = 0; t < inv.tables.size(); ++t) {
        const engine::SeedTable& table = inv.tables[t];
        for (unsigned r = 0; r < table.rows.size(); ++r) {
            const engine::SeedRow& row = table.rows[r];
            const bool cause_row = std::find(table.cause.rows.begin(), table.cause.rows.end(), r) !=
                                   table.cause.rows.end();
            if (row.measured) {
                plan.push_back(
                    {t, r, RowSource::measured,
                     request_for(workload, *row.measured, RowSource::measured, table, options)});
                if (cause_row && cause_needs_c2c(table))
                    plan.push_back(
                        {t, r, RowSource::traced,
                         request_for(workload, *row.measured, RowSource::traced, table, options)});
            }
            if (row.simulated && options.simulate)
                plan.push_back(
                    {t, r, RowSource::simulated,
                     request_for(workload, *row.simulated, RowSource::simulated, table, options)});
        }
    }
    return plan;
}

std::vector<std::int64_t>& RowRunIds::operator[](RowSource source) {
    switch (source) {
    case RowSource::measured:
        return measured;
    case RowSource::traced:
        return traced;
    case RowSource::simulated:
        break;
    case RowSource::unscaled:
        return unscaled;
    }
    return simulated;
}

const std::vector<std::int64_t>& RowRunIds::operator[](RowSource source) const {
    return const_cast<RowRunIds&>(*this)[source];
}

ReproductionRuns empty_runs(const engine::Investigation& investigation) {
    ReproductionRuns runs;
    for (const auto& table : investigation.tables)
        runs.emplace_back(table.rows.size());
    return runs;
}

} // namespace hitmap::collector
