#include "collector/analysis/trace_replay.hpp"

#include "collector/store/run_writer.hpp"
#include "collector/support/control_text.hpp"
#include "engine/layout/composition.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace hitmap::analysis {

namespace {

// Parameters minus the layouts: two runs that agree here differ only in struct layout.
nlohmann::json without_layouts(const std::string& params_json) {
    nlohmann::json p = nlohmann::json::parse(params_json);
    for (auto it = p.begin(); it != p.end();)
        it = it.key().starts_with("layout.") ? p.erase(it) : std::next(it);
    return p;
}

} // namespace

std::map<std::string, std::string> predicted_layouts(const store::C2cData& recorded,
                                                     const c2c::LayoutOverrides& layouts) {
    std::map<std::string, std::string> versions;
    for (const auto& o : recorded.objects)
        if (o.layout.type)
            if (const auto l = engine::layout_under(o.layout, layouts))
                versions["layout." + o.layout.type->name] = l->version;
    return versions;
}

std::optional<store::RunRecord> find_measured(const store::Database& db,
                                              const store::RunRecord& source,
                                              const std::map<std::string, std::string>& layouts) {
    const auto runs = db.runs({.workload = source.workload, .status = store::RunStatus::complete});
    const nlohmann::json want = without_layouts(source.params_json);
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        if (it->id == source.id || it->threads != source.threads ||
            it->c2c_source != store::C2cSource::software)
            continue;
        if (without_layouts(it->params_json) != want)
            continue;
        const nlohmann::json params = nlohmann::json::parse(it->params_json);
        const bool same_layouts = std::all_of(layouts.begin(), layouts.end(), [&](const auto& kv) {
            return params.value(kv.first, std::string()) == kv.second;
        });
        if (same_layouts)
            return *it;
    }
    return std::nullopt;
}

std::string layouts_text(const c2c::LayoutOverrides& layouts) {
    std::string out;
    for (const auto& [name, layout] : layouts)
        out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, layout.version);
    return out.empty() ? "recorded layouts" : out;
}

std::int64_t store_prediction(store::Database& db, const store::RunRecord& source,
                              const store::C2cData& recorded, const c2c::ReplayResult& predicted,
                              const c2c::LayoutOverrides& layouts) {
    const std::string under = layouts_text(layouts);
    store::RunRecord record = source;
    record.variant = fmt::format("{} @{}", source.variant, under);
    nlohmann::json params = nlohmann::json::parse(source.params_json);
    for (const auto& [name, layout] : layouts)
        params["layout." + name] = layout.version;
    record.params_json = support::json_text(params, -1);
    // A replay has no throughput of its own: it states the traced operations it replayed.
    record.source = store::Source::predicted;
    record.ops.reset();
    record.ops_per_s.reset();
    record.duration_s.reset();
    record.c2c_source = store::C2cSource::predicted;
    record.c2c_reason = fmt::format("replay of run {}'s trace ({} traced operations) under {}",
                                    source.id, recorded.trace.traced_ops, under);
    record.predicted_from = source.id;
    record.note.reset();
    store::C2cData data{recorded.objects, recorded.trace, predicted};
    for (auto& o : data.objects)
        if (auto l = engine::layout_under(o.layout, layouts))
            o.layout = std::move(*l);
    data.trace.path.reset(); // a prediction keeps no trace file of its own
    data.trace.bytes.reset();
    data.trace.file_hash.reset();
    data.trace.line_size = predicted.line_size;
    data.trace.model_cpus = c2c::to_string(predicted.model_cpus);
    store::RunOutcome outcome;
    outcome.note = fmt::format("predicted from run {} under {}", source.id, under);
    return db.insert_finished_run(record, outcome,
                                  [&](store::RunWriter& writer) { writer.write(data); });
}

std::unique_ptr<LoadedTrace> load_trace(const store::Database& db, const store::RunRecord& run,
                                        const store::C2cData& recorded) {
    if (!recorded.trace.path)
        throw collector::TraceFileError(
            fmt::format("run {} has no stored trace to replay", run.id));
    auto loaded = std::make_unique<LoadedTrace>();
    try {
        loaded->trace = collector::read_trace_file(
            collector::resolve_trace_path(db.path(), *recorded.trace.path),
            {recorded.trace.bytes, recorded.trace.file_hash, recorded.trace.records});
    } catch (const collector::TraceFileError& e) {
        // The file's name need not say whose trace it is (a merged or hand-edited database).
        throw collector::TraceFileError(fmt::format("run {}: {}", run.id, e.what()));
    }
    for (std::size_t t = 0; t < loaded->trace.threads.size(); ++t)
        loaded->threads.push_back({static_cast<std::uint32_t>(t), loaded->trace.threads[t]});
    return loaded;
}

} // namespace hitmap::analysis
