#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/trace_replay.hpp"
#include "collector/c2c/replay.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/cli/predict_simulated.hpp"
#include "collector/layoutopt/c_struct.hpp"
#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "collector/layoutopt/optimize_report.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/prediction_report.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/report/unknown.hpp"
#include "collector/run/progress.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/trace/trace_file.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/composition.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/layout_registry.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <memory>

namespace hitmap::cli {

namespace {

struct PredictOptions {
    std::int64_t run_id = 0;
    std::vector<std::string> layouts;
    bool phase_sweep = false;
    // Numbers as text, read by parse_count: CLI11 reads "-1" into an unsigned as 2^64-1.
    std::string line = "64";
    std::string model_cpus;
    std::optional<std::int64_t> compare;
    bool store = false;
    bool simulate = false;
    // --optimize STRUCT and its options
    std::string optimize;
    std::optional<std::string> max_size;
    std::string keep_order_of;
    std::string candidates = "5";
    std::string emit_c;
    std::string emit_json;
    std::string c_style = "padding";
    CommonOptions common;
};

// --model-cpus, or as the run was analysed.
c2c::ModelCpus model_cpus(const std::string& option, const store::C2cData& recorded) {
    if (option.empty())
        return recorded.result.model_cpus;
    if (const auto cpus = c2c::model_cpus_named(option))
        return *cpus;
    throw UsageError(fmt::format("unknown --model-cpus '{}' (recorded, thread)", option));
}

void optimize_layout(const PredictOptions& o);

void predict(const PredictOptions& o) {
    if (!o.optimize.empty()) {
        optimize_layout(o);
        return;
    }
    if (o.max_size || !o.keep_order_of.empty() || !o.emit_c.empty() || !o.emit_json.empty())
        throw UsageError("--max-size, --keep-order-of, --emit-c and --emit-json go with "
                         "--optimize STRUCT");
    if (o.simulate) {
        if (o.phase_sweep || o.line != "64" || !o.model_cpus.empty() || o.compare)
            throw UsageError("--phase-sweep, --line, --model-cpus and --compare replay a trace; "
                             "--simulate runs the simulation again");
        predict_simulated({o.run_id, o.layouts, o.store, o.common});
        return;
    }
    c2c::ReplayConfig config;
    for (auto& [name, layout] : parse_layouts(o.layouts))
        config.layouts.emplace(name, std::move(layout));
    config.line_size = static_cast<unsigned>(parse_count(o.line, "--line", 64, 128));
    if (config.line_size != 64 && config.line_size != 128)
        throw UsageError(fmt::format("--line {} must be 64 or 128", o.line));

    store::Database db =
        store::Database::open(o.common.db, {.create_if_missing = false, .read_only = !o.store});
    const store::RunRecord run = require_run(db, o.run_id);
    const store::C2cData recorded = require_c2c(db, run);
    const auto loaded = analysis::load_trace(db, run, recorded);
    config.model_cpus = model_cpus(o.model_cpus, recorded);
    const auto& threads = loaded->threads;
    const c2c::ReplayResult predicted = c2c::replay(threads, recorded.objects, config);

    std::optional<store::RunRecord> measured_run;
    std::optional<store::C2cData> measured;
    if (o.compare) {
        measured_run = require_run(db, *o.compare);
        measured = require_c2c(db, *measured_run);
    } else if ((measured_run = analysis::find_measured(
                    db, run, analysis::predicted_layouts(recorded, config.layouts)))) {
        measured = store::read_c2c(db, measured_run->id);
    }
    const auto comparison = analysis::compare_prediction(
        recorded, store::C2cData{recorded.objects, recorded.trace, predicted},
        measured ? &*measured : nullptr);

    std::optional<std::int64_t> stored;
    if (o.store)
        stored = analysis::store_prediction(db, run, recorded, predicted, config.layouts);

    if (o.common.json) {
        nlohmann::json j = report::prediction_json(comparison);
        j["source_run"] = run.id;
        j["layouts"] = analysis::layouts_text(config.layouts);
        j["line_size"] = config.line_size;
        j["measured_run"] = measured_run ? nlohmann::json(measured_run->id) : nlohmann::json();
        j["stored_run"] = stored ? nlohmann::json(*stored) : nlohmann::json();
        if (o.phase_sweep)
            for (const auto& point : c2c::phase_sweep(threads, recorded.objects, config))
                j["phase_sweep"].push_back(
                    {{"phase", point.phase},
                     {"transfers_per_1k_ops", report::json_or_null(analysis::per_thousand(
                                                  point.transfers, recorded.trace.traced_ops))}});
        fmt::print("{}\n", report::json_text(j));
        return;
    }
    fmt::print("# {}\n# replayed under {}, {}-byte lines, {} caches\n", report::run_title(run),
               analysis::layouts_text(config.layouts), config.line_size,
               config.model_cpus == c2c::ModelCpus::thread ? "per-thread" : "recorded-CPU");
    if (measured_run)
        fmt::print("# measured counterpart: {}\n", report::run_title(*measured_run));
    else
        fmt::print("# no measured run with these parameters and layouts (run it, or name one with "
                   "--compare)\n");
    fmt::print("\n{}", report::format_prediction(comparison, measured.has_value()));
    if (o.phase_sweep) {
        fmt::print("\nstart phase sweep (offset of each object modulo 64), all transfers per 1,000 "
                   "operations:\n");
        for (const auto& point : c2c::phase_sweep(threads, recorded.objects, config)) {
            auto fields = point.fields;
            std::sort(fields.begin(), fields.end(),
                      [](const auto& a, const auto& b) { return a.transfers > b.transfers; });
            std::string top;
            for (std::size_t i = 0; i < fields.size() && i < 4; ++i)
                top += fmt::format(
                    "{}{}:{} {}", i ? ", " : "", recorded.objects.at(fields[i].object).name,
                    fields[i].field_name,
                    analysis::per_thousand_text(fields[i].transfers, recorded.trace.traced_ops));
            fmt::print("  phase {:>2}: {:>9}   ({})\n", point.phase,
                       analysis::per_thousand_text(point.transfers, recorded.trace.traced_ops),
                       top);
        }
    }
    if (stored)
        fmt::print("\nstored as run {} (c2c source 'predicted')\n", *stored);
}

// Writes `text` to `path`; throws UsageError naming the file when it cannot.
void write_text_file(const std::string& path, const std::string& text, const char* option) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out)
        throw UsageError(fmt::format("{} {}: cannot write the file", option, path));
}

// The struct's other known layouts (built-in or a plugin's), to verify beside the proposals.
std::vector<engine::Layout> reference_layouts(const engine::StructType& type) {
    std::vector<engine::Layout> out;
    for (const engine::Layout* l : engine::known_layouts())
        if (l->type == &type)
            out.push_back(*l);
    return out;
}

void optimize_layout(const PredictOptions& o) {
    if (!o.layouts.empty() || o.phase_sweep || o.line != "64")
        throw UsageError("--optimize chooses the layout itself, on 64-byte lines: --layout, "
                         "--phase-sweep and --line do not go with it");
    if (o.simulate && (!o.model_cpus.empty() || o.compare))
        throw UsageError("--model-cpus and --compare replay a trace; --simulate runs the "
                         "simulation again");
    const engine::StructType* type = engine::find_struct_type(o.optimize);
    if (!type)
        throw UsageError(fmt::format("--optimize {}: unknown struct", o.optimize));
    const auto style = layoutopt::parse_c_style(o.c_style);
    if (!style)
        throw UsageError(fmt::format("--c-style {}: padding or groups", o.c_style));
    const auto candidates =
        static_cast<std::size_t>(parse_count(o.candidates, "--candidates", 1, 20));
    // A struct of up to 1 MiB: the largest the kernel's would be is a few KiB. 0: not given.
    const std::uint64_t max_size =
        o.max_size ? parse_count(*o.max_size, "--max-size", 1, 1 << 20) : 0;

    store::Database db =
        store::Database::open(o.common.db, {.create_if_missing = false, .read_only = !o.store});
    const store::RunRecord run = require_run(db, o.run_id);
    std::optional<Resimulation> again;
    if (o.simulate)
        again.emplace(db, run);
    const store::C2cData recorded = require_c2c(db, run);
    std::unique_ptr<analysis::LoadedTrace> loaded;
    layoutopt::Evaluate evaluate;
    std::string evaluated_by;
    if (again) {
        evaluate = [&](const c2c::LayoutOverrides& layouts) {
            return again->under({layouts.begin(), layouts.end()}).c2c;
        };
        evaluated_by = fmt::format("simulations of the run on {}", again->machine().name);
    } else {
        loaded = analysis::load_trace(db, run, recorded);
        c2c::ReplayConfig config;
        config.model_cpus = model_cpus(o.model_cpus, recorded);
        evaluate = layoutopt::replay_evaluation(loaded->threads, recorded, config);
        evaluated_by = "replays of its trace";
    }

    layoutopt::OptimizeRequest request;
    request.type = type;
    // Without --max-size: no larger than the current layout in whole lines.
    request.max_size = static_cast<std::uint32_t>(
        max_size != 0 ? max_size
                      : (layoutopt::StructCopies(*type, recorded.objects).current().size +
                         layoutopt::kLineSize - 1) /
                            layoutopt::kLineSize * layoutopt::kLineSize);
    if (!o.keep_order_of.empty())
        request.keep_order = split_list(o.keep_order_of, "--keep-order-of");
    request.candidates = candidates;
    request.references = reference_layouts(*type);

    collector::Progress bar(o.common.json ? collector::ProgressStyle::none
                                          : collector::ProgressStyle::automatic);
    const auto began = std::chrono::steady_clock::now();
    const layoutopt::OptimizeResult result =
        layoutopt::optimize(request, recorded, evaluate,
                            [&](std::size_t done, std::size_t total, const std::string& what) {
                                bar.begin(done, total, what);
                            });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    bar.end(true, fmt::format("{} layouts evaluated", result.evaluations));
    const layoutopt::EvaluatedLayout& winner = result.proposals.front();
    const c2c::LayoutOverrides chosen{{type->name, winner.layout}};

    // A measured run of the winner (run --layout STRUCT=the emitted JSON), found by its version.
    std::optional<store::RunRecord> measured_run;
    std::optional<store::C2cData> measured;
    if (o.compare) {
        measured_run = require_run(db, *o.compare);
        measured = require_c2c(db, *measured_run);
    } else if (!again && (measured_run = analysis::find_measured(
                              db, run, analysis::predicted_layouts(recorded, chosen)))) {
        measured = store::read_c2c(db, measured_run->id);
    }

    const std::string json_text = engine::layout_json(winner.layout);
    std::optional<std::string> c_text;
    std::string c_refused;
    try {
        c_text = layoutopt::c_struct(winner.layout, *style);
    } catch (const layoutopt::OptimizeError& e) {
        c_refused = e.what();
    }
    if (!o.emit_json.empty())
        write_text_file(o.emit_json, json_text, "--emit-json");
    if (!o.emit_c.empty()) {
        if (!c_text)
            throw UsageError(fmt::format("--emit-c: {}", c_refused));
        write_text_file(o.emit_c, *c_text, "--emit-c");
    }
    std::optional<std::int64_t> stored;
    if (o.store)
        stored = again ? again->store(db, {chosen.begin(), chosen.end()},
                                      again->under({chosen.begin(), chosen.end()}))
                       : analysis::store_prediction(db, run, recorded, winner.data.result, chosen);

    const layoutopt::OptimizeContext context{report::run_title(run),
                                             evaluated_by,
                                             seconds,
                                             &recorded,
                                             measured_run ? std::optional(measured_run->id)
                                                          : std::nullopt,
                                             measured ? &*measured : nullptr};
    if (o.common.json) {
        nlohmann::json j = layoutopt::optimization_json(result, context);
        j["source_run"] = run.id;
        j["c"] = c_text ? nlohmann::json(*c_text) : nlohmann::json();
        j["stored_run"] = report::json_or_null(stored);
        fmt::print("{}\n", report::json_text(j));
        return;
    }
    fmt::print("{}", layoutopt::format_optimization(result, context));
    if (!o.emit_json.empty())
        fmt::print("\nlayout JSON of {} written to {} (run it: --layout {}={})\n",
                   winner.layout.version, o.emit_json, type->name, o.emit_json);
    else
        fmt::print("\nlayout JSON of {} (--emit-json FILE writes it):\n{}", winner.layout.version,
                   json_text);
    if (!o.emit_c.empty())
        fmt::print("C of {} written to {}\n", winner.layout.version, o.emit_c);
    else if (c_text)
        fmt::print("\nC of {} (--emit-c FILE writes it; the annotations are include/linux/"
                   "cache.h's):\n{}",
                   winner.layout.version, *c_text);
    else
        fmt::print("\nno C: {}\n", c_refused);
    if (stored)
        fmt::print("\nstored as run {} (predicted from run {}; a run of the layout is its measured "
                   "counterpart)\n",
                   *stored, run.id);
}

} // namespace

void add_predict_command(CLI::App& app) {
    auto o = std::make_shared<PredictOptions>();
    auto* cmd = app.add_subcommand(
        "predict", "Replay a run's stored trace (or simulate a simulated run again) under another "
                   "layout and predict its transfers; --optimize searches for the layout with "
                   "the fewest");
    cmd->add_option("run", o->run_id, "Run id with a software c2c trace, or a simulated run")
        ->required();
    cmd->add_option("--layout", o->layouts,
                    "Layout STRUCT=VERSION|FILE.json|btf[:FILE] to replay under (repeatable)");
    cmd->add_flag("--phase-sweep", o->phase_sweep,
                  "Also replay at every start phase 0..56 (step 8)");
    cmd->add_option("--line", o->line, "Line size: 64, or 128 for the adjacent-line prefetcher")
        ->capture_default_str();
    cmd->add_option("--model-cpus", o->model_cpus,
                    "recorded or thread (default: as the run was analysed)");
    cmd->add_option("--compare", o->compare,
                    "Measured run to compare with (default: found by parameters)");
    cmd->add_flag("--simulate", o->simulate,
                  "RUN is a simulated run: simulate it again (its machine, calibration and "
                  "operations) under --layout or each layout --optimize tries, no trace needed");
    cmd->add_option("--optimize", o->optimize,
                    "Search the layouts of STRUCT (e.g. page_counter) for the fewest predicted "
                    "transfers; prints the best against the current and built-in layouts, and the "
                    "winner as layout JSON and kernel C");
    cmd->add_option("--max-size", o->max_size,
                    "With --optimize: largest struct in bytes, whole 64-byte lines (default: the "
                    "current layout's size in whole lines)");
    cmd->add_option("--keep-order-of", o->keep_order_of,
                    "With --optimize: FIELD,FIELD,... keep their current relative order");
    cmd->add_option("--candidates", o->candidates,
                    "With --optimize: proposals verified by a full replay or simulation")
        ->capture_default_str();
    cmd->add_option("--emit-json", o->emit_json,
                    "With --optimize: write the winner's layout JSON to FILE (for run/predict "
                    "--layout STRUCT=FILE)");
    cmd->add_option("--emit-c", o->emit_c,
                    "With --optimize: write the winner as a C struct to FILE");
    cmd->add_option("--c-style", o->c_style,
                    "With --optimize: padding (CACHELINE_PADDING between lines) or groups (also "
                    "__cacheline_group_begin/end around each line)")
        ->capture_default_str();
    cmd->add_flag("--store", o->store, "Store the prediction as a run linked to the source run");
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print JSON");
    cmd->callback([o] { predict(*o); });
}

} // namespace hitmap::cli
