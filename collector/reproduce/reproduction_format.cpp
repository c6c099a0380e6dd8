#include "collector/reproduce/reproduction_format.hpp"

#include "collector/locks/lockstat_layout.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"
#include "collector/sim/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace hitmap::collector {

namespace {

using engine::FigureKind;
using Grid = std::vector<std::vector<std::string>>;

// Whole numbers as integers, thousands grouped from 1,000; fractions to three or four
// significant digits.
std::string number(double v) {
    if (std::abs(v) >= 1000 || v == std::floor(v)) {
        const std::string digits = fmt::format("{:.0f}", std::abs(v));
        std::string out = v < 0 ? "-" : "";
        for (std::size_t i = 0; i < digits.size(); ++i) {
            if (i > 0 && (digits.size() - i) % 3 == 0)
                out += ',';
            out += digits[i];
        }
        return out;
    }
    if (std::abs(v) >= 100)
        return fmt::format("{:.1f}", v);
    return fmt::format("{:.3g}", v);
}

std::string figure(const std::optional<double>& v) {
    return v ? number(*v) : "–";
}

std::string change_text(const std::optional<double>& c, engine::ChangeStyle style, bool base) {
    if (base)
        return "base";
    if (!c)
        return "–";
    return style == engine::ChangeStyle::ratio ? fmt::format("{:.2f}×", *c)
                                               : fmt::format("{:+.1f} %", *c * 100.0);
}

std::string with_unit(const std::string& name, const std::string& unit) {
    return unit.empty() ? name : fmt::format("{} ({})", name, unit);
}

bool has_source(const ReproducedTable& t, bool simulated) {
    return std::any_of(t.rows.begin(), t.rows.end(), [&](const ReproducedRow& r) {
        return simulated ? r.simulated.has_value() : r.measured.has_value();
    });
}

// "2 threads", or "1-2 threads" when the rows differ.
std::string threads_of(const ReproducedTable& t, bool simulated) {
    unsigned lo = UINT32_MAX, hi = 0;
    for (const auto& r : t.rows)
        if (const auto& f = simulated ? r.simulated : r.measured) {
            lo = std::min(lo, f->threads);
            hi = std::max(hi, f->threads);
        }
    if (hi == 0)
        return "";
    const std::string n = lo == hi ? fmt::format("{}", hi) : fmt::format("{}-{}", lo, hi);
    return fmt::format("{} {}{}", n, simulated ? "virtual CPU" : "thread", hi == 1 ? "" : "s");
}

// A figure of ours beside the seed's: every figure but those the engine does not model.
bool ours_shown(const engine::FigureSpec& f) {
    return f.kind != FigureKind::seed_only;
}

// A lock_stat table has its columns above it: the grids keep what its change and cause are
// about, the contentions and their sites, and the figures lock_stat does not print.
bool grid_column(const ReproducedTable& t, std::size_t i) {
    return !t.spec.lock_stat || i == 0 || t.spec.figures[i].kind != FigureKind::lock_field;
}

// The table's header and one line per row: the seed's figures, the simulated machine's beside
// them, then the changes. A function of the seed and the committed calibrations: the same on
// every machine.
Grid table_grid(const ReproducedTable& t) {
    const bool simulated = has_source(t, true);
    const bool change = t.spec.change != engine::ChangeStyle::none;
    Grid g;
    std::vector<std::string> head{"row"};
    for (std::size_t i = 0; i < t.spec.figures.size(); ++i) {
        if (!grid_column(t, i))
            continue;
        const auto& f = t.spec.figures[i];
        head.push_back(with_unit(f.column + " seed", f.seed_unit.empty() ? f.unit : f.seed_unit));
        if (simulated && ours_shown(f))
            head.push_back(with_unit(f.column + " simulated", f.unit));
    }
    if (change) {
        head.push_back("change seed");
        if (simulated)
            head.push_back("change simulated");
    }
    g.push_back(std::move(head));
    for (const ReproducedRow& r : t.rows) {
        std::vector<std::string> line{r.label};
        for (std::size_t i = 0; i < t.spec.figures.size(); ++i) {
            if (!grid_column(t, i))
                continue;
            line.push_back(figure(i < r.seed.size() ? r.seed[i] : std::nullopt));
            if (simulated && ours_shown(t.spec.figures[i]))
                line.push_back(r.simulated ? figure(r.simulated->values[i]) : "–");
        }
        if (change) {
            line.push_back(change_text(r.seed_change, t.spec.change, r.baseline));
            if (simulated)
                line.push_back(change_text(r.simulated ? r.simulated->change : std::nullopt,
                                           t.spec.change, r.baseline));
        }
        g.push_back(std::move(line));
    }
    return g;
}

// This machine's real threads: each figure's median over the runs and its lowest–highest, and
// the change of the medians. Noisy: the machine is shared and has two CPUs, not the seed's.
Grid measured_grid(const ReproducedTable& t) {
    const bool change = t.spec.change != engine::ChangeStyle::none;
    Grid g;
    std::vector<std::string> head{"row"};
    for (std::size_t i = 0; i < t.spec.figures.size(); ++i)
        if (grid_column(t, i) && ours_shown(t.spec.figures[i])) {
            head.push_back(
                with_unit(t.spec.figures[i].column + " measured", t.spec.figures[i].unit));
            head.push_back("min–max");
        }
    if (change)
        head.push_back("change measured");
    g.push_back(std::move(head));
    for (const ReproducedRow& r : t.rows) {
        std::vector<std::string> line{r.label};
        for (std::size_t i = 0; i < t.spec.figures.size(); ++i) {
            if (!grid_column(t, i) || !ours_shown(t.spec.figures[i]))
                continue;
            line.push_back(r.measured ? figure(r.measured->values[i]) : "–");
            const auto range = r.measured ? r.measured->ranges.at(i) : std::nullopt;
            line.push_back(range ? number(range->first) + "–" + number(range->second) : "–");
        }
        if (change)
            line.push_back(change_text(r.measured ? r.measured->change : std::nullopt,
                                       t.spec.change, r.baseline));
        g.push_back(std::move(line));
    }
    return g;
}

// Display width: the multi-byte characters here ("–", "×") take one column each.
std::size_t width(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string grid_text(const Grid& g) {
    std::vector<std::size_t> w;
    for (const auto& row : g)
        for (std::size_t i = 0; i < row.size(); ++i) {
            w.resize(std::max(w.size(), row.size()));
            w[i] = std::max(w[i], width(row[i]));
        }
    std::string out;
    for (const auto& row : g) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string pad(w[i] - width(row[i]), ' ');
            line += i == 0 ? row[i] + pad : "  " + pad + row[i];
        }
        out += line + "\n";
    }
    return out;
}

std::string markdown_cell(const std::string& s) {
    std::string out;
    for (const char c : report::escape_control(s)) {
        if (c == '|')
            out += '\\';
        out += c;
    }
    return out;
}

std::string grid_markdown(const Grid& g) {
    std::string out;
    for (std::size_t r = 0; r < g.size(); ++r) {
        out += "|";
        for (const auto& cell : g[r])
            out += " " + markdown_cell(cell) + " |";
        out += "\n";
        if (r == 0) {
            out += "|---";
            for (std::size_t i = 1; i < g[r].size(); ++i)
                out += "|---:";
            out += "|\n";
        }
    }
    return out;
}

// The rows as /proc/lock_stat 0.3 prints a class (kernel/locking/lockdep_proc.c): "%40s:" and
// ten "%14s" columns, then its contention points, once per source.
std::string lock_stat_text(const ReproducedTable& t, bool measured) {
    const auto& figs = t.spec.figures;
    const std::string rule(locks::kNameWidth + 1 + 10 * (locks::kColumnWidth + 1), '-');
    std::string out = "lock_stat version 0.3\n" + rule + "\n";
    out += fmt::format("{:>{}} ", "class name", locks::kNameWidth);
    for (const auto c : locks::v03_columns())
        out += fmt::format(" {:>{}}", locks::title(c), locks::kColumnWidth);
    out += "\n" + rule + "\n";
    const auto print = [&](const std::string& caption, const std::vector<std::optional<double>>& v,
                           std::int64_t run_id) {
        out += "\n" + caption + (run_id ? fmt::format(" (run {})", run_id) : "") + "\n";
        const std::string lock = figs.empty() ? "" : figs.front().lock;
        out += fmt::format("{:>{}}:", lock, locks::kNameWidth);
        for (const auto c : locks::v03_columns()) {
            std::optional<double> x;
            for (std::size_t i = 0; i < figs.size(); ++i)
                if (figs[i].kind == FigureKind::lock_field && figs[i].name == locks::title(c))
                    x = i < v.size() ? v[i] : std::nullopt;
            const std::string text = !x                         ? "–"
                                     : locks::is_time_column(c) ? fmt::format("{:.2f}", *x)
                                                                : fmt::format("{:.0f}", *x);
            out += fmt::format(" {:>{}}", text, locks::kColumnWidth + (text == "–" ? 2 : 0));
        }
        out += fmt::format("\n{:>{}}\n", "--------------", locks::kNameWidth);
        for (std::size_t i = 0; i < figs.size(); ++i)
            if (figs[i].kind == FigureKind::lock_site) {
                const std::string n = i < v.size() && v[i] ? fmt::format("{:.0f}", *v[i]) : "–";
                out += fmt::format("{:>{}} {:>{}}          {}\n", lock, locks::kNameWidth, n,
                                   locks::kColumnWidth + (n == "–" ? 2 : 0), figs[i].name);
            }
    };
    for (const ReproducedRow& r : t.rows) {
        if (measured) {
            if (r.measured)
                print(fmt::format("{}, measured ({}), the median of {} runs", r.label,
                                  threads_of(t, false), r.measured->runs),
                      r.measured->values, r.measured->run_id);
            continue;
        }
        print(r.label + ", the seed", r.seed, 0);
        if (r.simulated)
            print(fmt::format("{}, simulated on {} ({})", r.label, t.spec.machine,
                              threads_of(t, true)),
                  r.simulated->values, r.simulated->run_id);
    }
    return out;
}

std::string cause_text(const Cause& c, const ReproducedTable& t) {
    std::string out;
    const std::string where =
        c.source == "simulated" ? "simulated on " + t.spec.machine : "measured on this machine";
    for (const CauseLine& l : c.lines)
        out += fmt::format("cause ({}), {} [run {}]: {}\n", where, l.row, l.run_id,
                           report::escape_control(l.text));
    return out;
}

std::string sources_line(const Reproduction& r, const ReproducedTable& t) {
    std::string out = "seed: the investigation's figures";
    if (has_source(t, true)) {
        out += fmt::format("; simulated: {} of {} (virtual time; calibrations {}",
                           threads_of(t, true), t.spec.machine, r.calibrations);
        if (r.native_scale)
            out += fmt::format("; native speed x{:.3g}, {}", r.native_scale->factor,
                               r.native_scale->parameter);
        out += ")";
    }
    return out;
}

// How the table's throughput is read, and why: fixed-time benchmarks report a rate over the
// run, which a simulation of a fixed virtual time gives per CPU; a fixed count of operations
// ends when its slowest CPU does.
std::optional<std::string> throughput_line(const ReproducedTable& t) {
    if (t.spec.figures.empty() || t.spec.figures[0].kind != FigureKind::ops_per_s)
        return std::nullopt;
    const bool fixed_time = std::any_of(t.spec.rows.begin(), t.spec.rows.end(), [](const auto& r) {
        return r.simulated && r.simulated->duration_us != 0;
    });
    return fixed_time
               ? std::string("throughput: simulated, each CPU's operations over its own run, "
                             "summed (the mean per-CPU rate times the CPUs), as the seed's "
                             "fixed-time benchmark reports a rate; measured, operations over "
                             "the run's wall time")
               : std::string("throughput: operations over the time the slowest CPU ended, "
                             "the seed's benchmark running a fixed count");
}

std::string measured_line(const ReproducedTable& t) {
    unsigned runs = 1;
    for (const auto& r : t.rows)
        if (r.measured)
            runs = std::max(runs, r.measured->runs);
    return fmt::format(
        "measured on this machine, not the seed's: real threads ({}), untraced; "
        "noisy (whatever else this machine runs): the median of {} runs, their lowest–highest "
        "beside it",
        threads_of(t, false), runs);
}

std::string native_scale_line(const NativeScale& n) {
    return fmt::format("{} = {:.4g}: {}; {} simulated at this host's native speed ran {} "
                       "[run {}] against the seed's {}",
                       n.parameter, n.factor, n.how, n.row, number(n.unscaled), n.run_id,
                       number(n.seed));
}

} // namespace

std::string format_reproduction_text(const Reproduction& r) {
    std::string out = fmt::format("== {}: {}\n   {}{}\n", r.id, r.title, r.source,
                                  r.quick ? " (--quick sizes)" : "");
    if (r.native_scale)
        out += "   " + native_scale_line(*r.native_scale) + "\n";
    for (const ReproducedTable& t : r.tables) {
        out += fmt::format("\n-- {}\n{}\n", t.spec.title, sources_line(r, t));
        if (const auto line = throughput_line(t))
            out += *line + "\n";
        out += t.spec.lock_stat ? lock_stat_text(t, false) + "\n" + grid_text(table_grid(t))
                                : grid_text(table_grid(t));
        for (const Cause& c : t.causes)
            if (c.source == "simulated")
                out += cause_text(c, t);
        for (const std::string& thin : t.thin)
            out += fmt::format("thin calibration segments (< {} timings) priced {}\n",
                               sim::kThinSamples, thin);
        out += "note: " + t.spec.note + "\n";
        if (!has_source(t, false))
            continue;
        out += "\n" + measured_line(t) + "\n";
        out += t.spec.lock_stat ? lock_stat_text(t, true) + "\n" + grid_text(measured_grid(t))
                                : grid_text(measured_grid(t));
        for (const Cause& c : t.causes)
            if (c.source == "measured")
                out += cause_text(c, t);
    }
    return out;
}

std::string format_reproduction_markdown(const Reproduction& r) {
    std::string out =
        fmt::format("## {}: {}\n\n{}{}\n", markdown_cell(r.id), markdown_cell(r.title),
                    markdown_cell(r.source), r.quick ? " (`--quick` sizes)" : "");
    if (r.native_scale)
        out += "\n" + markdown_cell(native_scale_line(*r.native_scale)) + "\n";
    const auto causes = [&](const ReproducedTable& t, std::string_view source) {
        std::string lines;
        for (const Cause& c : t.causes) {
            if (c.source != source)
                continue;
            std::string text = cause_text(c, t);
            std::size_t at = 0;
            for (std::size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
                lines += "- " + markdown_cell(text.substr(at, nl - at)) + "\n";
        }
        return lines;
    };
    for (const ReproducedTable& t : r.tables) {
        out += fmt::format("\n### {}\n\n{}.\n\n", markdown_cell(t.spec.title),
                           markdown_cell(sources_line(r, t)));
        if (const auto line = throughput_line(t))
            out += markdown_cell(*line) + ".\n\n";
        out += grid_markdown(table_grid(t));
        if (t.spec.lock_stat)
            out += "\n```\n" + lock_stat_text(t, false) + "```\n";
        out += "\n" + causes(t, "simulated");
        for (const std::string& thin : t.thin)
            out += fmt::format("- thin calibration segments (< {} timings) priced {}\n",
                               sim::kThinSamples, markdown_cell(thin));
        out += fmt::format("- note: {}\n", markdown_cell(t.spec.note));
        if (!has_source(t, false))
            continue;
        out += "\n" + markdown_cell(measured_line(t)) + ".\n\n" + grid_markdown(measured_grid(t));
        if (t.spec.lock_stat)
            out += "\n```\n" + lock_stat_text(t, true) + "```\n";
        out += "\n" + causes(t, "measured");
    }
    return out;
}

namespace {

Grid scorecard_grid(const Scorecard& card) {
    Grid g{{"investigation", "row", "figure", "seed", "ours", "ours/seed", "within 2×", "direction",
            "predicted or anchored"}};
    const auto yes_no = [](std::optional<bool> b) { return !b ? "–" : *b ? "yes" : "no"; };
    for (const ScoreFigure& f : card.figures)
        g.push_back({f.investigation, f.row, f.figure, number(f.seed), number(f.ours),
                     fmt::format("{:.2f}", f.ratio), yes_no(f.within_2x), yes_no(f.direction_right),
                     f.anchored_by ? "anchored: " + *f.anchored_by : "predicted"});
    return g;
}

std::string scorecard_summary(const Scorecard& card) {
    return fmt::format("predicted: {} of {} within 2× of the seed, {} of {} in the seed's "
                       "direction; anchored (not counted): {}",
                       card.predicted_within_2x, card.predicted, card.predicted_direction_right,
                       card.with_direction, card.figures.size() - card.predicted);
}

// What each anchored parameter was set from, and how much the figures move with it.
std::string anchor_lines(const Scorecard& card, std::string_view bullet) {
    std::string out;
    for (const std::string& a : card.anchors)
        out += fmt::format("{}{}\n", bullet, a);
    return out;
}

} // namespace

std::string format_scorecard_text(const Scorecard& card) {
    return grid_text(scorecard_grid(card)) + scorecard_summary(card) + "\n" +
           anchor_lines(card, "anchored ");
}

std::string format_scorecard_markdown(const Scorecard& card) {
    return grid_markdown(scorecard_grid(card)) + "\n" + scorecard_summary(card) + "\n\n" +
           anchor_lines(card, "- anchored ");
}

nlohmann::json scorecard_json(const Scorecard& card) {
    nlohmann::json figures = nlohmann::json::array();
    for (const ScoreFigure& f : card.figures)
        figures.push_back({{"investigation", f.investigation},
                           {"table", f.table},
                           {"row", f.row},
                           {"figure", f.figure},
                           {"seed", f.seed},
                           {"ours", f.ours},
                           {"ratio", f.ratio},
                           {"within_2x", f.within_2x},
                           {"direction_right", report::json_or_null(f.direction_right)},
                           {"kind", f.anchored_by ? "anchored" : "predicted"},
                           {"parameter", report::json_or_null(f.anchored_by)}});
    return {{"figures", figures},
            {"predicted", card.predicted},
            {"predicted_within_2x", card.predicted_within_2x},
            {"predicted_direction_right", card.predicted_direction_right},
            {"predicted_with_direction", card.with_direction}};
}

namespace {

std::string_view kind_name(FigureKind k) {
    switch (k) {
    case FigureKind::ops_per_s:
        return "ops_per_s";
    case FigureKind::seconds_for:
        return "seconds_for";
    case FigureKind::metric:
        return "metric";
    case FigureKind::lock_field:
        return "lock_field";
    case FigureKind::lock_site:
        return "lock_site";
    case FigureKind::seed_only:
        return "seed_only";
    }
    return "?";
}

std::string_view change_name(engine::ChangeStyle s) {
    switch (s) {
    case engine::ChangeStyle::ratio:
        return "ratio";
    case engine::ChangeStyle::percent:
        return "percent";
    case engine::ChangeStyle::none:
        break;
    }
    return "none";
}

nlohmann::json values_json(const std::vector<std::optional<double>>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& x : v)
        out.push_back(report::json_or_null(x));
    return out;
}

nlohmann::json figures_json(const std::optional<RowFigures>& f, std::string_view source) {
    if (!f)
        return nullptr;
    nlohmann::json ranges = nlohmann::json::array();
    for (const auto& range : f->ranges)
        ranges.push_back(range ? nlohmann::json::array({range->first, range->second})
                               : nlohmann::json(nullptr));
    return {{"source", source},
            {"run_id", f->run_id},
            {"threads", f->threads},
            {"runs", f->runs},
            {"values", values_json(f->values)},
            {"ranges", ranges},
            {"change", report::json_or_null(f->change)}};
}

nlohmann::json reproduction_json(const Reproduction& r) {
    nlohmann::json tables = nlohmann::json::array();
    for (const ReproducedTable& t : r.tables) {
        nlohmann::json figures = nlohmann::json::array();
        for (const auto& f : t.spec.figures)
            figures.push_back({{"column", f.column},
                               {"kind", kind_name(f.kind)},
                               {"unit", f.unit},
                               {"seed_unit", f.seed_unit.empty() ? nlohmann::json(nullptr)
                                                                 : nlohmann::json(f.seed_unit)}});
        nlohmann::json rows = nlohmann::json::array();
        for (const ReproducedRow& row : t.rows)
            rows.push_back({{"label", row.label},
                            {"baseline", row.baseline},
                            {"seed", values_json(row.seed)},
                            {"seed_change", report::json_or_null(row.seed_change)},
                            {"measured", figures_json(row.measured, "measured")},
                            {"simulated", figures_json(row.simulated, "simulated")}});
        nlohmann::json causes = nlohmann::json::array();
        for (const Cause& c : t.causes) {
            nlohmann::json lines = nlohmann::json::array();
            for (const CauseLine& l : c.lines)
                lines.push_back({{"row", l.row}, {"run_id", l.run_id}, {"text", l.text}});
            causes.push_back({{"source", c.source}, {"lines", lines}});
        }
        tables.push_back({{"title", t.spec.title},
                          {"note", t.spec.note},
                          {"machine", t.spec.machine.empty() ? nlohmann::json(nullptr)
                                                             : nlohmann::json(t.spec.machine)},
                          {"change", change_name(t.spec.change)},
                          {"lower_is_better", t.spec.lower_is_better},
                          {"lock_stat", t.spec.lock_stat},
                          {"figures", figures},
                          {"rows", rows},
                          {"causes", causes},
                          {"throughput", report::json_or_null(throughput_line(t))},
                          {"thin", t.thin}});
    }
    nlohmann::json scale = nullptr;
    if (r.native_scale)
        scale = {{"parameter", r.native_scale->parameter},
                 {"factor", r.native_scale->factor},
                 {"how", r.native_scale->how},
                 {"row", r.native_scale->row},
                 {"seed", r.native_scale->seed},
                 {"unscaled", r.native_scale->unscaled},
                 {"run_id", r.native_scale->run_id}};
    return {{"id", r.id},
            {"title", r.title},
            {"source", r.source},
            {"calibrations", r.simulated ? nlohmann::json(r.calibrations) : nullptr},
            {"native_scale", scale},
            {"tables", tables}};
}

} // namespace

nlohmann::json reproductions_json(const std::vector<Reproduction>& all) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : all)
        list.push_back(reproduction_json(r));
    return {{"schema_version", 1},
            {"quick", !all.empty() && all.front().quick},
            {"simulate", !all.empty() && all.front().simulated},
            {"investigations", list}};
}

} // namespace hitmap::collector
