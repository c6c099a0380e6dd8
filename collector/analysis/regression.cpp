#include "collector/analysis/regression.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/support/enum_names.hpp"
#include "collector/support/unknown.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace hitmap::analysis {

namespace {

constexpr std::array<support::EnumName<RegressionKind>, 6> kKindNames{{
    {RegressionKind::ops, "ops"},
    {RegressionKind::transfers, "transfers"},
    {RegressionKind::contentions, "contentions"},
    {RegressionKind::waits, "waits"},
    {RegressionKind::hitm, "hitm"},
    {RegressionKind::hitm_share, "hitm-share"},
}};

// A parameter value longer than this is shown by its size in differing_params().
constexpr std::size_t kLongParam = 80;

// The units of figures as captured, without an operation count to divide by.
constexpr std::string_view kSamples = "samples";
constexpr std::string_view kShare = "% of captured HITM";
constexpr std::string_view kCount = "contentions";
constexpr std::string_view kWaitNs = "ns";

RunKey key_of(const store::RunRecord& run) {
    std::string source{store::to_string(run.source)};
    if (run.simulated_machine)
        source += ":" + *run.simulated_machine;
    return {run.workload, run.variant, run.threads, run.params_json, source};
}

// A source that cannot count every transfer (store::KnownCounts::transfers) adds no transfer
// figure: its known part would be compared as the whole. A capture without an operation count
// adds its HITMs as counted and as shares of all it captured instead.
void add_c2c_figures(const store::C2cData& data, std::vector<Figure>& out) {
    const std::optional<std::uint64_t> ops = data.traced_ops();
    const bool captured = !ops && data.trace.capture_hitm;
    if (!data.trace.known.transfers() && !captured)
        return;
    const auto add = [&](const std::string& name, const c2c::ClassCounts& counts) {
        if (captured) {
            out.push_back({RegressionKind::hitm, "hitm" + name, static_cast<double>(counts.hitm()),
                           std::string(kSamples)});
            if (const auto share = analysis::hitm_share(counts.hitm(), data))
                out.push_back(
                    {RegressionKind::hitm_share, "hitm-share" + name, *share, std::string(kShare)});
        } else if (const auto rate = analysis::per_thousand(counts.transfers(), ops)) {
            out.push_back({RegressionKind::transfers, "transfers" + name, *rate, "per 1k ops"});
        }
    };
    // A field can sit on several lines (a struct spanning two); its figure is their sum.
    std::map<std::string, c2c::ClassCounts> fields;
    for (const auto& f : data.result.fields)
        fields[fmt::format("[{}:{}]", object_name(data, f.line.object), f.field_name)] += f.counts;
    for (const auto& [name, counts] : fields)
        add(name, counts);
    // A line is named by the fields accessed on it as well as its index: under another layout
    // line 3 holds other fields, and is another figure.
    std::map<std::pair<engine::ObjectId, std::uint32_t>, std::pair<std::string, std::string>>
        spans; // first and last field by offset
    for (const auto& f : data.result.fields) {
        auto [it, fresh] = spans.try_emplace({f.line.object, f.line.index}, f.field_name, "");
        it->second.second = f.field_name;
    }
    for (const auto& l : data.result.lines) {
        std::string fields;
        if (const auto it = spans.find({l.line.object, l.line.index}); it != spans.end())
            fields = it->second.first == it->second.second
                         ? ": " + it->second.first
                         : fmt::format(": {}..{}", it->second.first, it->second.second);
        add(fmt::format("[{} line {}{}]", object_name(data, l.line.object), l.line.index, fields),
            l.counts);
    }
}

// The engine's lock tables per operation of the run; an imported table (lock_stat, perf lock)
// as counted, its text having no operations. Kernel tables count the whole machine, not the run.
void add_lock_figures(const std::vector<store::LockData>& tables, std::optional<std::int64_t> ops,
                      std::vector<Figure>& out) {
    const bool per_op = ops && *ops > 0;
    for (const auto& table : tables) {
        const bool imported = table.source == store::LockSource::lockstat ||
                              table.source == store::LockSource::perf_lock;
        if (!(table.source == store::LockSource::engine && per_op) && !imported)
            continue;
        // Several tables of one text (before and after) are told apart by their position.
        const std::string prefix =
            imported && tables.size() > 1 ? fmt::format("table {}: ", &table - tables.data()) : "";
        const double scale = imported ? 1.0 : 1.0 / static_cast<double>(*ops);
        for (const auto& c : table.report.classes) {
            std::optional<std::uint64_t> contentions;
            for (const auto& side : {c.write, c.read})
                if (side && side->contentions)
                    contentions = contentions.value_or(0) + *side->contentions;
            if (contentions || !imported)
                out.push_back({RegressionKind::contentions,
                               fmt::format("contentions[{}{}]", prefix, c.name),
                               (imported ? 1.0 : 1000.0) *
                                   static_cast<double>(contentions.value_or(0)) * scale,
                               imported ? std::string(kCount) : "per 1k ops"});
            std::optional<std::int64_t> wait;
            for (const auto& side : {c.write, c.read})
                if (side && side->wait.total_ns)
                    wait = wait.value_or(0) + *side->wait.total_ns;
            if (wait)
                out.push_back({RegressionKind::waits, fmt::format("waits[{}{}]", prefix, c.name),
                               static_cast<double>(*wait) * scale,
                               imported ? std::string(kWaitNs) : "ns/op"});
        }
    }
}

Sample sample_of(const std::vector<double>& values) {
    Sample s{values.size(), 0, values.front(), values.front()};
    for (double v : values) {
        s.mean += v;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
    }
    s.mean /= static_cast<double>(values.size());
    return s;
}

// The figures of a group's runs, by kind and name: every run's value of it.
struct Collected {
    std::string unit;
    std::vector<double> values;
};
using FigureTable = std::map<std::pair<RegressionKind, std::string>, Collected>;

FigureTable collect(const std::vector<const RunFigures*>& runs) {
    FigureTable table;
    for (const RunFigures* run : runs)
        for (const auto& f : run->figures) {
            auto& c = table[{f.kind, f.name}];
            c.unit = f.unit;
            c.values.push_back(f.value);
        }
    return table;
}

void append_changes(const std::string& group, const std::vector<const RunFigures*>& base,
                    const std::vector<const RunFigures*>& current, Comparison& out) {
    std::optional<store::Source> source = base.front()->source;
    for (const auto* side : {&base, &current})
        for (const RunFigures* r : *side)
            if (r->source != source)
                source.reset();
    const FigureTable b = collect(base), c = collect(current);
    std::set<std::pair<RegressionKind, std::string>> names;
    for (const auto* table : {&b, &c})
        for (const auto& [name, values] : *table)
            names.insert(name);
    for (const auto& name : names) {
        FigureChange change{group, name.first, name.second, {}, source, {}, {}, {}, {}};
        if (const auto it = b.find(name); it != b.end()) {
            change.unit = it->second.unit;
            change.base = sample_of(it->second.values);
        }
        if (const auto it = c.find(name); it != c.end()) {
            change.unit = it->second.unit;
            change.current = sample_of(it->second.values);
        }
        if (change.base && change.current && change.base->mean != 0)
            change.change = change.current->mean / change.base->mean - 1;
        if (change.base && change.current)
            change.difference = change.current->mean - change.base->mean;
        out.changes.push_back(std::move(change));
    }
}

std::vector<const RunFigures*> pointers(const std::vector<RunFigures>& runs) {
    std::vector<const RunFigures*> out;
    for (const auto& r : runs)
        out.push_back(&r);
    return out;
}

double floor_of(const FigureChange& c) {
    switch (c.kind) {
    case RegressionKind::ops:
        return 0;
    case RegressionKind::waits:
        return c.unit == kWaitNs ? kGateFloorWaitTotalNs : kGateFloorWaitNs;
    case RegressionKind::hitm:
        return kGateFloorCounts;
    case RegressionKind::hitm_share:
        return kGateFloorSharePoints;
    case RegressionKind::contentions:
        return c.unit == kCount ? kGateFloorCounts : kGateFloorPerThousand;
    case RegressionKind::transfers:
        break;
    }
    return kGateFloorPerThousand;
}

// Shares change by points, every other figure by its ratio.
bool in_points(RegressionKind kind) {
    return kind == RegressionKind::hitm_share;
}

std::string gate_text(const Gate& gate) {
    return fmt::format(
        "{}{}:{:+g}{}", gate.source ? std::string(store::to_string(*gate.source)) + "." : "",
        to_string(gate.kind), in_points(gate.kind) ? gate.threshold : gate.threshold * 100,
        in_points(gate.kind) ? "pp" : "%");
}

} // namespace

std::string sample_text(const std::optional<Sample>& s) {
    return s ? fmt::format("{:.4g}", s->mean) : std::string(support::unknown_text);
}

std::string_view to_string(RegressionKind kind) {
    const std::string_view name = support::name_of(kKindNames, kind);
    return name.empty() ? "?" : name;
}

std::string describe(const RunKey& key) {
    std::string text = fmt::format("{} {}", key.workload, key.variant);
    if (key.threads)
        text += fmt::format(", {} thread{}", *key.threads, *key.threads == 1 ? "" : "s");
    return text + ", " + key.source;
}

std::vector<std::string> differing_params(const RunKey& before, const RunKey& after) {
    const auto b = nlohmann::json::parse(before.params_json);
    const auto a = nlohmann::json::parse(after.params_json);
    std::set<std::string> names;
    for (const auto* side : {&b, &a})
        for (const auto& item : side->items())
            names.insert(item.key());
    std::vector<std::string> out;
    for (const auto& name : names) {
        const auto text = [&](const nlohmann::json& side) {
            return side.contains(name) ? side[name].dump() : std::string(support::unknown_text);
        };
        // A long value (an import's code locations, kilobytes of JSON) is named by its size:
        // the line says that it changed, the run's report says how.
        const auto shown = [](const std::string& t) {
            return t.size() > kLongParam ? fmt::format("({} characters)", t.size()) : t;
        };
        if (text(b) != text(a))
            out.push_back(fmt::format("{}: {} -> {}", name, shown(text(b)), shown(text(a))));
    }
    return out;
}

RunFigures read_run_figures(store::Database& db, const store::RunRecord& run) {
    RunFigures out{run.id, key_of(run), run.source, {}};
    if (run.ops_per_s)
        out.figures.push_back({RegressionKind::ops, "ops_per_s", *run.ops_per_s, "ops/s"});
    if (const auto c2c = store::read_c2c(db, run.id))
        add_c2c_figures(*c2c, out.figures);
    add_lock_figures(store::read_lock_tables(db, run.id), run.ops, out.figures);
    return out;
}

std::vector<RunFigures> read_database_figures(store::Database& db) {
    std::vector<RunFigures> out;
    for (const auto& run : db.runs({.status = store::RunStatus::complete})) {
        if (run.source == store::Source::predicted || run.source == store::Source::imported)
            continue;
        out.push_back(read_run_figures(db, run));
    }
    return out;
}

Comparison compare_runs(const std::vector<RunFigures>& base, const std::vector<RunFigures>& current,
                        const std::string& group) {
    Comparison out;
    append_changes(group, pointers(base), pointers(current), out);
    return out;
}

Comparison compare_matched(const std::vector<RunFigures>& base,
                           const std::vector<RunFigures>& current) {
    std::map<RunKey, std::pair<std::vector<const RunFigures*>, std::vector<const RunFigures*>>>
        groups;
    for (const auto& r : base)
        groups[r.key].first.push_back(&r);
    for (const auto& r : current)
        groups[r.key].second.push_back(&r);
    // Parameters are named only where two groups would otherwise read the same: a variant's
    // full parameter set is long, and most runs use the defaults.
    std::map<std::string, int> described;
    for (const auto& [key, sides] : groups)
        ++described[describe(key)];
    const auto name = [&](const RunKey& key) {
        const std::string text = describe(key);
        return described[text] > 1 ? text + ", " + key.params_json : text;
    };
    Comparison out;
    for (const auto& [key, sides] : groups) {
        if (sides.second.empty())
            out.only_in_base.push_back(name(key));
        else if (sides.first.empty())
            out.only_in_current.push_back(name(key));
        else
            append_changes(name(key), sides.first, sides.second, out);
    }
    return out;
}

std::vector<Gate> parse_gates(std::string_view spec) {
    std::vector<Gate> gates;
    for (bool more = !spec.empty(); more;) {
        const auto comma = spec.find(',');
        std::string_view item = spec.substr(0, comma);
        more = comma != std::string_view::npos;
        spec = more ? spec.substr(comma + 1) : std::string_view{};
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        const auto bad = [&](std::string_view why) {
            return GateSyntaxError(
                fmt::format("--fail-on: '{}' {} (expected [SOURCE.]KIND:[+|-]N%, KIND one of ops, "
                            "transfers, contentions, waits, hitm; or hitm-share:[+|-]Npp)",
                            item, why));
        };
        if (item.empty())
            throw bad("is empty");
        const auto colon = item.find(':');
        if (colon == std::string_view::npos)
            throw bad("has no ':'");
        Gate gate;
        std::string_view kind = item.substr(0, colon);
        if (const auto dot = kind.find('.'); dot != std::string_view::npos) {
            try {
                gate.source = store::parse_source(kind.substr(0, dot));
            } catch (const std::invalid_argument&) {
                throw bad("names no source (simulated, measured, traced)");
            }
            kind.remove_prefix(dot + 1);
        }
        if (kind == "wait") // as the issue and perf lock say it
            kind = "waits";
        const auto known = support::value_named(kKindNames, kind);
        if (!known)
            throw bad("names no figure kind");
        gate.kind = *known;
        std::string_view number = item.substr(colon + 1);
        const std::string_view unit = in_points(gate.kind) ? "pp" : "%";
        if (!number.ends_with(unit))
            throw bad(fmt::format("does not end in '{}'", unit));
        number.remove_suffix(unit.size());
        // Without a sign, the direction that hurts: ops falling, the others rising.
        double sign = gate.kind == RegressionKind::ops ? -1 : 1;
        if (!number.empty() && (number.front() == '+' || number.front() == '-')) {
            sign = number.front() == '-' ? -1 : 1;
            number.remove_prefix(1);
        }
        double percent = 0;
        const auto [end, ec] =
            std::from_chars(number.data(), number.data() + number.size(), percent);
        if (ec != std::errc{} || end != number.data() + number.size() || number.empty())
            throw bad(fmt::format("has no number before '{}'", unit));
        if (!(percent > 0) || !std::isfinite(percent))
            throw bad(fmt::format("needs a threshold above 0 {}", unit));
        gate.threshold = sign * (in_points(gate.kind) ? percent : percent / 100);
        gates.push_back(gate);
    }
    if (gates.empty())
        throw GateSyntaxError("--fail-on: no gate given (expected e.g. 'ops:-5%,transfers:+20%')");
    return gates;
}

std::vector<Violation> check_gates(const Comparison& comparison, const std::vector<Gate>& gates) {
    std::vector<Violation> out;
    for (std::size_t i = 0; i < comparison.changes.size(); ++i) {
        const FigureChange& c = comparison.changes[i];
        if (!c.current)
            continue;
        if (std::max(c.current->mean, c.base ? c.base->mean : 0.0) < floor_of(c))
            continue;
        for (const Gate& gate : gates) {
            if (gate.kind != c.kind || (gate.source && gate.source != c.source))
                continue;
            // At the threshold is past it: 10 -> 12 trips +20 %, although 12 / 10 - 1 is
            // 0.19999999999999996 in doubles.
            constexpr double rounding = 1e-9;
            const std::optional<double> moved = in_points(c.kind) ? c.difference : c.change;
            const bool past = moved ? (gate.threshold < 0 ? *moved <= gate.threshold + rounding
                                                          : *moved >= gate.threshold - rounding)
                                    : gate.threshold > 0; // new, or up from exactly 0
            if (past)
                out.push_back({i, gate});
        }
    }
    return out;
}

std::vector<ViolationSummary> summarize(const Comparison& comparison,
                                        const std::vector<Violation>& violations) {
    const auto severity = [&](const Violation& v) {
        const FigureChange& c = comparison.changes[v.change];
        const auto& change = in_points(c.kind) ? c.difference : c.change;
        return change ? std::abs(*change) : std::numeric_limits<double>::infinity();
    };
    std::vector<ViolationSummary> out;
    for (const Violation& v : violations) {
        const std::string& group = comparison.changes[v.change].group;
        const auto same = std::find_if(out.begin(), out.end(), [&](const ViolationSummary& s) {
            return comparison.changes[s.worst.change].group == group &&
                   s.worst.gate.kind == v.gate.kind && s.worst.gate.source == v.gate.source &&
                   s.worst.gate.threshold == v.gate.threshold;
        });
        if (same == out.end()) {
            out.push_back({v, 1});
            continue;
        }
        ++same->count;
        if (severity(v) > severity(same->worst))
            same->worst = v;
    }
    return out;
}

std::string robot_line(const FigureChange& change, const Gate& gate) {
    const std::string amount =
        in_points(change.kind)
            ? (change.difference ? fmt::format("{:+.1f}pp", *change.difference) : "new")
            : (change.change ? fmt::format("{:+.1f}%", *change.change * 100) : "new");
    const auto runs = [](const std::optional<Sample>& s) { return s ? s->n : 0; };
    return fmt::format("{} regression of {}: {} {} -> {} {} ({} vs {} run{}; gate {})", amount,
                       change.group, change.name, sample_text(change.base),
                       sample_text(change.current), change.unit, runs(change.base),
                       runs(change.current), runs(change.current) == 1 ? "" : "s", gate_text(gate));
}

std::vector<std::string> noisy_groups(const Comparison& comparison, std::size_t repeats) {
    std::vector<std::string> out;
    for (const auto& c : comparison.changes) {
        if (c.deterministic() || c.kind != RegressionKind::ops || !c.base || !c.current)
            continue;
        if ((c.base->n < repeats || c.current->n < repeats) &&
            std::find(out.begin(), out.end(), c.group) == out.end())
            out.push_back(c.group);
    }
    return out;
}

} // namespace hitmap::analysis
