#include "collector/report/run_summary.hpp"

#include "collector/c2c/cost_model.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

// The source of a run's cacheline tables, as the provenance vocabulary names it.
std::string_view tables_source(const store::RunRecord& run) {
    if (run.c2c_source == store::C2cSource::predicted ||
        run.c2c_source == store::C2cSource::simulated)
        return store::to_string(*run.c2c_source);
    return "replayed";
}

} // namespace

std::string run_title(const store::RunRecord& run) {
    return fmt::format("run {}: {} {} x{} threads, {} s, {} ops ({})", run.id,
                       escape_control(run.workload), escape_control(run.variant),
                       text_or_unknown(run.threads, "{}"),
                       text_or_unknown(run.duration_s, "{:.3g}"), text_or_unknown(run.ops, "{}"),
                       store::to_string(run.source));
}

nlohmann::json run_json(const store::RunRecord& run) {
    nlohmann::json params = nlohmann::json::parse(run.params_json, nullptr, false);
    return {{"id", run.id},
            {"workload", run.workload},
            {"variant", run.variant},
            {"source", store::to_string(run.source)},
            {"threads", json_or_null(run.threads)},
            {"duration_s", json_or_null(run.duration_s)},
            {"ops", json_or_null(run.ops)},
            {"ops_per_s", json_or_null(run.ops_per_s)},
            {"status", store::to_string(run.status)},
            {"c2c_source", json_or_null(store::c2c_source_text(run.c2c_source))},
            {"c2c_reason", json_or_null(run.c2c_reason)},
            {"predicted_from", json_or_null(run.predicted_from)},
            {"started_at", run.started_at},
            {"note", json_or_null(run.note)},
            {"params", params.is_discarded() ? nlohmann::json() : params}};
}

std::string provenance_text(const store::RunRecord& run, const store::C2cData& data) {
    std::string out = fmt::format("# throughput: {}", store::to_string(run.source));
    if (run.source == store::Source::traced)
        out += " (ops/s while probes recorded: slower than an untraced run)";
    else if (run.source == store::Source::predicted)
        out += fmt::format(" (no throughput of its own; {} traced operations replayed)",
                           data.trace.traced_ops);
    else if (run.source == store::Source::simulated)
        out += " (virtual time on the simulated machine, not measured)";
    if (data.trace.format == store::kPerfC2cReportFormat)
        return out + fmt::format("\n# cachelines: {}: perf's counts of {} sample records, "
                                 "{}-byte lines; its cycles columns are kept as the run's "
                                 "metrics\n",
                                 run.c2c_source == store::C2cSource::perf
                                     ? "perf c2c record around the run, its report imported"
                                     : "imported from a perf c2c report",
                                 data.trace.records, data.trace.line_size);
    if (data.trace.clock == "sampled")
        out += fmt::format("\n# cachelines: hardware: {} samples ({}) of the loads and stores of "
                           "{} operations attributed to fields ({} lost); counts are samples, "
                           "{}-byte lines\n",
                           data.trace.records, data.trace.format, data.trace.traced_ops,
                           data.trace.dropped_records, data.trace.line_size);
    else if (data.trace.clock == "virtual")
        out += fmt::format("\n# cachelines: simulated: every access of {} operations ({} "
                           "accesses) counted by the simulation's coherence model, one cache per "
                           "virtual CPU, {}-byte lines\n",
                           data.trace.traced_ops, data.trace.records, data.trace.line_size);
    else
        out += fmt::format("\n# cachelines: {} from {} traced operations, {} records ({} dropped), "
                           "timestamps per {}, {} caches, {}-byte lines\n",
                           tables_source(run), data.trace.traced_ops, data.trace.records,
                           data.trace.dropped_records, data.trace.clock,
                           data.trace.model_cpus == "thread" ? "per-thread" : "recorded-CPU",
                           data.trace.line_size);
    out += fmt::format("# Est. cycles: an estimate from the {}",
                       c2c::describe_cost_table(data.trace.cost_table));
    return out;
}

nlohmann::json provenance_json(const store::RunRecord& run, const store::C2cData& data) {
    return {{"throughput_source", store::to_string(run.source)},
            {"c2c_source", tables_source(run)},
            {"clock", data.trace.clock},
            {"model_cpus", data.trace.model_cpus},
            {"line_size", data.trace.line_size},
            {"cost_table", data.trace.cost_table},
            {"cost_table_description", c2c::describe_cost_table(data.trace.cost_table)},
            {"traced_ops", json_or_null(data.traced_ops())},
            {"records", data.trace.records},
            {"dropped_records", json_or_null(data.dropped_records())},
            {"cpu_migrations", json_or_null(data.cpu_migrations())}};
}

nlohmann::json metrics_json(const std::vector<store::Metric>& metrics) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : metrics)
        out.push_back({{"name", m.name},
                       {"value", json_or_null(m.value)},
                       {"unit", m.unit},
                       {"available", m.available},
                       {"reason", json_or_null(m.reason)},
                       {"source", store::to_string(m.source)},
                       {"scaled", json_or_null(m.scaled)}});
    return out;
}

} // namespace hitmap::report
