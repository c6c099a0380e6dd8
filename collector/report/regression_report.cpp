#include "collector/report/regression_report.hpp"

#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>

namespace hitmap::report {

namespace {

using analysis::FigureChange;
using analysis::RegressionKind;

// The rows a text or Markdown report shows, group by group in the comparison's order.
struct Group {
    std::string name;
    std::vector<std::size_t> rows; // indices into Comparison::changes
};

std::vector<Group> shown_groups(const RegressionReport& r) {
    std::set<std::size_t> tripped;
    for (const auto& v : r.violations)
        tripped.insert(v.change);
    const auto& changes = r.comparison.changes;
    std::vector<Group> groups;
    std::map<std::pair<std::string, RegressionKind>, std::vector<std::size_t>> by_kind;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        if (groups.empty() || groups.back().name != changes[i].group)
            groups.push_back({changes[i].group, {}});
        by_kind[{changes[i].group, changes[i].kind}].push_back(i);
    }
    const auto larger = [&](std::size_t i) {
        const FigureChange& c = changes[i];
        return std::max(c.base ? c.base->mean : 0.0, c.current ? c.current->mean : 0.0);
    };
    for (auto& group : groups) {
        for (RegressionKind kind :
             {RegressionKind::ops, RegressionKind::transfers, RegressionKind::hitm,
              RegressionKind::hitm_share, RegressionKind::contentions, RegressionKind::waits}) {
            auto rows = by_kind[{group.name, kind}];
            std::stable_sort(rows.begin(), rows.end(),
                             [&](std::size_t a, std::size_t b) { return larger(a) > larger(b); });
            for (std::size_t n = 0; n < rows.size(); ++n)
                if (kind == RegressionKind::ops || r.limit == 0 || n < r.limit ||
                    tripped.contains(rows[n]))
                    group.rows.push_back(rows[n]);
        }
    }
    return groups;
}

// Half the range over the mean: "±1.2%" for three repeats; "–" for a single run.
std::string spread_text(const std::optional<analysis::Sample>& s) {
    if (!s || s->n < 2 || s->mean == 0)
        return std::string(unknown_text);
    return fmt::format("±{:.1f}%", (s->max - s->min) / 2 / s->mean * 100);
}

std::string change_text(const FigureChange& c) {
    if (c.kind == RegressionKind::hitm_share && c.difference) // shares move by points
        return fmt::format("{:+.1f}pp", *c.difference);
    if (c.change)
        return fmt::format("{:+.1f}%", *c.change * 100);
    if (c.current && (!c.base || c.base->mean == 0))
        return c.base ? "from 0" : "new";
    if (c.base && !c.current)
        return "gone";
    return std::string(unknown_text);
}

std::string runs_text(const RegressionReport& r, const Group& g) {
    for (std::size_t i : g.rows) {
        const FigureChange& c = r.comparison.changes[i];
        if (c.kind == RegressionKind::ops && c.base && c.current)
            return fmt::format("{} vs {} runs{}", c.base->n, c.current->n,
                               c.deterministic() ? ", simulated: exact" : "");
    }
    // Captures have no ops/s: any figure both sides have says how many runs each side holds.
    for (std::size_t i : g.rows) {
        const FigureChange& c = r.comparison.changes[i];
        if (c.base && c.current)
            return fmt::format("{} vs {} runs, counts as captured", c.base->n, c.current->n);
    }
    return "";
}

// A figure's row: name, base, its spread, current, its spread, change, unit. The name is as
// stored; each format escapes it.
std::array<std::string, 7> row_cells(const FigureChange& c) {
    return {c.name,
            analysis::sample_text(c.base),
            spread_text(c.base),
            analysis::sample_text(c.current),
            spread_text(c.current),
            change_text(c),
            c.unit};
}

nlohmann::json sample_json(const std::optional<analysis::Sample>& s) {
    if (!s)
        return nullptr;
    return {{"runs", s->n}, {"mean", s->mean}, {"min", s->min}, {"max", s->max}};
}

} // namespace

std::vector<std::string> regression_lines(const RegressionReport& r) {
    std::vector<std::string> out;
    for (const auto& s : analysis::summarize(r.comparison, r.violations)) {
        std::string line = analysis::robot_line(r.comparison.changes[s.worst.change], s.worst.gate);
        if (s.count > 1)
            line += fmt::format(" and {} more figure{} of this group past that gate", s.count - 1,
                                s.count == 2 ? "" : "s");
        out.push_back(std::move(line));
    }
    return out;
}

std::string regression_text(const RegressionReport& r) {
    std::string out;
    for (const auto& g : shown_groups(r)) {
        std::size_t width = 20;
        for (std::size_t i : g.rows)
            width = std::max(width, escape_control(r.comparison.changes[i].name).size());
        out += fmt::format("{} ({})\n", escape_control(g.name), runs_text(r, g));
        out += fmt::format("  {:<{}} {:>11} {:>7} {:>11} {:>7} {:>8}  {}\n", "figure", width,
                           "base", "spread", "current", "spread", "change", "unit");
        for (std::size_t i : g.rows) {
            const auto cells = row_cells(r.comparison.changes[i]);
            out += fmt::format("  {:<{}} {:>11} {:>7} {:>11} {:>7} {:>8}  {}\n",
                               escape_control(cells[0]), width, cells[1], cells[2], cells[3],
                               cells[4], cells[5], cells[6]);
        }
    }
    for (const auto& name : r.comparison.only_in_base)
        out += fmt::format("only in the base: {}\n", escape_control(name));
    for (const auto& name : r.comparison.only_in_current)
        out += fmt::format("only in the current: {}\n", escape_control(name));
    return out;
}

std::string regression_markdown(const RegressionReport& r) {
    std::string out = r.violations.empty()
                          ? "### hitmap compare: no regression past the gates\n\n"
                          : fmt::format("### hitmap compare: {} regression{}\n\n",
                                        r.violations.size(), r.violations.size() == 1 ? "" : "s");
    for (const auto& line : regression_lines(r))
        out += fmt::format("- **{}**\n", markdown_text(line));
    for (const auto& g : r.noisy)
        out +=
            fmt::format("- fewer than 3 runs a side, changes may be noise: {}\n", markdown_text(g));
    for (const auto& g : shown_groups(r)) {
        out += fmt::format("\n#### {} ({})\n\n", markdown_text(g.name), runs_text(r, g));
        out += "| figure | base | spread | current | spread | change | unit |\n"
               "|---|---:|---:|---:|---:|---:|---|\n";
        for (std::size_t i : g.rows) {
            auto cells = row_cells(r.comparison.changes[i]);
            for (auto& cell : cells)
                cell = markdown_text(cell);
            out += fmt::format("| {} |\n", fmt::join(cells, " | "));
        }
    }
    if (!r.comparison.only_in_base.empty() || !r.comparison.only_in_current.empty())
        out += "\n";
    for (const auto& name : r.comparison.only_in_base)
        out += fmt::format("- only in the base: {}\n", markdown_text(name));
    for (const auto& name : r.comparison.only_in_current)
        out += fmt::format("- only in the current: {}\n", markdown_text(name));
    return out;
}

nlohmann::json regression_json(const RegressionReport& r) {
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& c : r.comparison.changes)
        changes.push_back({{"group", c.group},
                           {"kind", analysis::to_string(c.kind)},
                           {"figure", c.name},
                           {"unit", c.unit},
                           {"deterministic", c.deterministic()},
                           {"base", sample_json(c.base)},
                           {"current", sample_json(c.current)},
                           {"change", json_or_null(c.change)},
                           {"difference", json_or_null(c.difference)}});
    nlohmann::json regressions = nlohmann::json::array();
    for (const auto& v : r.violations)
        regressions.push_back(analysis::robot_line(r.comparison.changes[v.change], v.gate));
    return {{"changes", changes},
            {"regressions", regressions},
            {"noisy_groups", r.noisy},
            {"only_in_base", r.comparison.only_in_base},
            {"only_in_current", r.comparison.only_in_current}};
}

} // namespace hitmap::report
