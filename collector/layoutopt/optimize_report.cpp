#include "collector/layoutopt/optimize_report.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "collector/report/prediction_report.hpp"
#include "collector/report/unknown.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/composition.hpp"
#include "engine/layout/layout_loader.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::layoutopt {

namespace {

// One layout's figures, per 1,000 of its evaluation's operations.
struct Column {
    std::string name; // layout version, or "run N"
    std::string role; // "current", "#1", "built-in", "measured"
    std::uint32_t size = 0;
    std::vector<std::optional<double>> fields; // by FieldId of the struct
    std::optional<double> limits;              // the limit fields; nullopt when the struct has none
    std::optional<double> struct_lines;        // lines holding the struct's fields
    std::optional<double> usage_lines;
    std::optional<double> all;
    std::optional<double> model;
};

// The fields the struct type declares limits (engine::FieldRole::limit).
std::vector<engine::FieldId> limit_fields(const OptimizeResult& r) {
    return r.current.layout.type->fields_with(engine::FieldRole::limit);
}

// What the limit rows and "lines holding usage" stand for, from the type's metadata: its limit
// fields and who reads them, and the charged field of the struct the run embeds it in (or its
// own).
std::string limits_note(const engine::StructType& type) {
    std::string names;
    for (const engine::FieldId f : type.fields_with(engine::FieldRole::limit))
        names += fmt::format("{}{}", names.empty() ? "" : ", ", type.fields[f]);
    std::string out = fmt::format("limit fields: {}, read by {}", names, type.limits_read_by);
    const auto containers = engine::containers_of(type);
    const engine::StructType& charged_in =
        containers.empty() ? type : *containers.front()->container;
    for (const std::string& f : charged_in.fields)
        if (engine::is_charged_usage(charged_in, f))
            return out + fmt::format("; lines holding usage: those of the charged {}\n", f);
    return out + "\n";
}

Column column(const OptimizeResult& r, const OptimizeContext& context, const store::C2cData& data,
              const std::vector<std::uint64_t>& by_field, std::uint64_t struct_lines,
              const engine::Layout& layout, std::string role) {
    const std::uint64_t ops = data.trace.traced_ops;
    Column c{layout.version, std::move(role), layout.size, {}, {}, {}, {}, {}, {}};
    for (const std::uint64_t t : by_field)
        c.fields.push_back(analysis::per_thousand(t, ops));
    if (const auto limits_of = limit_fields(r); !limits_of.empty()) {
        std::uint64_t limits = 0;
        for (const engine::FieldId f : limits_of)
            limits += by_field[f];
        c.limits = analysis::per_thousand(limits, ops);
    }
    c.struct_lines = analysis::per_thousand(struct_lines, ops);
    if (context.recorded)
        c.usage_lines = analysis::compare_prediction(*context.recorded, data, nullptr)
                            .usage_line_predicted.transfers;
    c.all = analysis::per_thousand(data.result.totals.transfers(), ops);
    return c;
}

Column evaluated_column(const OptimizeResult& r, const OptimizeContext& context,
                        const EvaluatedLayout& e, std::string role) {
    Column c = column(r, context, e.data, e.field_transfers, e.struct_line_transfers, e.layout,
                      std::move(role));
    if (e.model_transfers && e.data.trace.traced_ops > 0)
        c.model = 1000.0 * *e.model_transfers / static_cast<double>(e.data.trace.traced_ops);
    return c;
}

std::vector<Column> columns(const OptimizeResult& r, const OptimizeContext& context) {
    std::vector<Column> out{evaluated_column(r, context, r.current, "current")};
    for (std::size_t i = 0; i < r.proposals.size(); ++i)
        out.push_back(evaluated_column(r, context, r.proposals[i], fmt::format("#{}", i + 1)));
    for (const EvaluatedLayout& e : r.references)
        out.push_back(evaluated_column(r, context, e, "built-in"));
    if (context.measured && context.measured_run && !r.proposals.empty()) {
        const StructCopies copies(*r.current.layout.type, context.measured->objects);
        Column m = column(
            r, context, *context.measured, transfers_by_field(*context.measured, copies),
            struct_line_transfers(*context.measured, copies), r.proposals[0].layout, "measured #1");
        m.name = fmt::format("run {}", *context.measured_run);
        out.push_back(std::move(m));
    }
    return out;
}

std::uint32_t lines_of_size(std::uint32_t size) {
    return (size + kLineSize - 1) / kLineSize;
}

std::optional<double> change(const std::optional<double>& now, const std::optional<double>& was) {
    if (!now || !was || *was <= 0)
        return std::nullopt;
    return 100.0 * (*now - *was) / *was;
}

std::string change_text(const std::optional<double>& now, const std::optional<double>& was) {
    return report::text_or_unknown(change(now, was), "{:+.1f} %");
}

} // namespace

std::string format_optimization(const OptimizeResult& r, const OptimizeContext& context) {
    const engine::StructType& type = *r.current.layout.type;
    const std::vector<Column> cols = columns(r, context);
    std::string out = fmt::format(
        "# {}\n# struct {}: {} cop{}, {} fields ({} accessed), at most {} bytes ({} line{})\n"
        "# {} layouts evaluated by {}: {} for field affinity, {} search steps{}, "
        "{} proposals and {} other versions verified; {:.1f} s\n",
        context.run_title, type.name, r.copies, r.copies == 1 ? "y" : "ies", r.fields.size(),
        r.affinity.fields.size(), r.max_lines * kLineSize, r.max_lines, r.max_lines == 1 ? "" : "s",
        r.evaluations, context.evaluated_by, r.affinity.evaluations, r.search_nodes,
        r.exhaustive ? " (exhaustive)" : " (budget reached: best found)", r.proposals.size(),
        r.references.size(), context.seconds);

    std::size_t label = 24, width = 14;
    for (const engine::FieldId f : r.fields)
        label = std::max(label, type.fields[f].size() + 2);
    for (const Column& c : cols)
        width = std::max(width, c.name.size() + 2);
    const auto row = [&](const std::string& name, auto&& cell) {
        std::string line = fmt::format("{:<{}}", name, label);
        for (const Column& c : cols)
            line += fmt::format("{:>{}}", cell(c), width);
        return line + "\n";
    };
    const auto rate = [](const std::optional<double>& v) {
        return report::text_or_unknown(v, "{:.2f}");
    };
    out += fmt::format("\ntransfers per 1,000 operations, summed over the {} copies\n", r.copies);
    out += row("", [](const Column& c) { return c.name; });
    out += row("", [](const Column& c) { return c.role; });
    std::vector<std::string> never;
    for (const engine::FieldId f : r.fields) {
        if (std::find(r.affinity.fields.begin(), r.affinity.fields.end(), f) ==
            r.affinity.fields.end()) {
            never.push_back(type.fields[f]);
            continue;
        }
        out += row(type.fields[f], [&](const Column& c) { return rate(c.fields[f]); });
    }
    if (!limit_fields(r).empty())
        out += row("limit fields", [&](const Column& c) { return rate(c.limits); });
    out += row(fmt::format("lines holding {}", type.name),
               [&](const Column& c) { return rate(c.struct_lines); });
    out += row("  pairwise model", [&](const Column& c) { return rate(c.model); });
    out += row("lines holding usage", [&](const Column& c) { return rate(c.usage_lines); });
    out += row("all lines of the run", [&](const Column& c) { return rate(c.all); });
    out += row("size / lines", [&](const Column& c) {
        return fmt::format("{} / {}", c.size, lines_of_size(c.size));
    });
    if (!never.empty()) {
        std::string names;
        for (const std::string& n : never)
            names += (names.empty() ? "" : ", ") + n;
        out += fmt::format("never accessed (placed where they cost nothing): {}\n", names);
    }
    if (!limit_fields(r).empty())
        out += limits_note(type);
    out += "ranked by all lines of the run; the pairwise model is what the search minimised\n";
    if (r.proposals.empty())
        return out;

    const Column& current = cols.front();
    const Column& best = cols[1];
    out += fmt::format("\n#1 {} against {}: all transfers {}", best.name, current.name,
                       change_text(best.all, current.all));
    if (best.limits && current.limits && *current.limits > 0)
        out += fmt::format(", limit fields {:.1f} % of {}'s",
                           100.0 * *best.limits / *current.limits, current.name);
    out +=
        fmt::format(", lines holding usage {}", change_text(best.usage_lines, current.usage_lines));
    for (std::size_t i = 1 + r.proposals.size(); i < 1 + r.proposals.size() + r.references.size();
         ++i)
        out += fmt::format("; against {}: {}", cols[i].name, change_text(best.all, cols[i].all));
    out += "\n";
    if (best.all && current.all && *best.all >= *current.all)
        out += fmt::format("no proposal has fewer transfers than {}: keep it\n", current.name);
    if (context.measured_run) {
        const Column& m = cols.back();
        out += fmt::format("measured counterpart of #1: run {}: lines holding usage predicted {}, "
                           "measured {} ({} predicted vs measured)\n",
                           *context.measured_run, rate(best.usage_lines), rate(m.usage_lines),
                           change_text(best.usage_lines, m.usage_lines));
    }
    return out;
}

nlohmann::json optimization_json(const OptimizeResult& r, const OptimizeContext& context) {
    const engine::StructType& type = *r.current.layout.type;
    nlohmann::json j{{"struct", type.name},
                     {"copies", r.copies},
                     {"max_size", r.max_lines * kLineSize},
                     {"evaluated_by", context.evaluated_by},
                     {"evaluations", r.evaluations},
                     {"seconds", context.seconds},
                     {"search", {{"nodes", r.search_nodes}, {"exhaustive", r.exhaustive}}}};
    for (const engine::FieldId f : r.fields)
        j["fields"].push_back(type.fields[f]);
    // The measured pairwise costs, per 1,000 operations of the evaluations.
    const std::uint64_t ops = r.current.data.trace.traced_ops;
    const auto per_1k = [&](double v) -> nlohmann::json {
        if (ops == 0)
            return nullptr;
        return 1000.0 * v / static_cast<double>(ops);
    };
    nlohmann::json affinity{{"fields", nlohmann::json::array()},
                            {"self_per_1k_ops", nlohmann::json::array()},
                            {"pair_per_1k_ops", nlohmann::json::array()}};
    for (std::size_t i = 0; i < r.affinity.fields.size(); ++i) {
        affinity["fields"].push_back(type.fields[r.affinity.fields[i]]);
        affinity["self_per_1k_ops"].push_back(per_1k(r.affinity.costs.self[i]));
        nlohmann::json row = nlohmann::json::array();
        for (const double v : r.affinity.costs.pair[i])
            row.push_back(per_1k(v));
        affinity["pair_per_1k_ops"].push_back(row);
    }
    j["affinity"] = affinity;
    for (const Column& c : columns(r, context)) {
        nlohmann::json col{{"version", c.name},
                           {"role", c.role},
                           {"size", c.size},
                           {"lines", lines_of_size(c.size)},
                           {"transfers_per_1k_ops", report::json_or_null(c.all)},
                           {"struct_lines_per_1k_ops", report::json_or_null(c.struct_lines)},
                           {"usage_lines_per_1k_ops", report::json_or_null(c.usage_lines)},
                           {"limit_fields_per_1k_ops", report::json_or_null(c.limits)},
                           {"model_per_1k_ops", report::json_or_null(c.model)}};
        nlohmann::json fields = nlohmann::json::object();
        for (const engine::FieldId f : r.fields)
            fields[type.fields[f]] = report::json_or_null(c.fields[f]);
        col["fields"] = fields;
        j["layouts"].push_back(col);
    }
    if (!r.proposals.empty())
        j["winner"] = nlohmann::json::parse(engine::layout_json(r.proposals.front().layout));
    j["measured_run"] = report::json_or_null(context.measured_run);
    return j;
}

} // namespace hitmap::layoutopt
