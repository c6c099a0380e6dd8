#include "collector/reproduce/reproduction.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/locks/lockstat_layout.hpp"
#include "collector/run/simulated_run.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/lock_tables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace hitmap::collector {

namespace {

using engine::FigureKind;

std::optional<double> metric_value(const std::vector<store::Metric>& metrics,
                                   const std::string& name) {
    for (const auto& m : metrics)
        if (m.name == name)
            return m.available ? m.value : std::nullopt;
    return std::nullopt;
}

// The engine's table of the run's lock statistics: the class named `lock`.
std::optional<locks::LockClassStats> lock_class(store::Database& db, std::int64_t run_id,
                                                const std::string& lock) {
    for (const store::LockData& table : store::read_lock_tables(db, run_id))
        for (const locks::LockClassStats& c : table.report.classes)
            if (c.name == lock)
                return c;
    return std::nullopt;
}

// A lock_stat column of the class, times in microseconds as lock_stat prints them.
std::optional<double> lock_column(locks::LockClassStats c, const std::string& column) {
    const auto col = locks::column_titled(column);
    if (!col || !c.write)
        return std::nullopt;
    if (locks::is_time_column(*col)) {
        const auto ns = locks::time_slot(*c.write, *col);
        return ns ? std::optional<double>(static_cast<double>(*ns) / 1000.0) : std::nullopt;
    }
    const auto n = locks::count_slot(*c.write, *col);
    return n ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
}

// Contentions at the call sites whose symbol starts with `function` (lock_stat's points).
std::optional<double> lock_site(const locks::LockClassStats& c, const std::string& function) {
    std::uint64_t n = 0;
    bool listed = false;
    for (const auto& p : c.contention_points)
        if (p.symbol.starts_with(function)) {
            n += p.count;
            listed = true;
        }
    // lock_stat lists the first four sites seen: an unlisted one is unknown, unless nothing
    // contended at all.
    if (!listed && c.total_contentions() > 0)
        return std::nullopt;
    return static_cast<double>(n);
}

RowFigures read_figures(store::Database& db, std::int64_t run_id,
                        const std::vector<engine::FigureSpec>& figures) {
    const store::RunRecord run = db.run(run_id).value();
    const std::vector<store::Metric> metrics = db.metrics(run_id);
    RowFigures out{run_id, static_cast<unsigned>(run.threads.value_or(0)), {}, std::nullopt, 1, {}};
    std::map<std::string, std::optional<locks::LockClassStats>> classes;
    for (const engine::FigureSpec& f : figures) {
        std::optional<double> v;
        switch (f.kind) {
        case FigureKind::ops_per_s:
            // A fixed-duration simulation's rate as a fixed-time benchmark reports it.
            if (const auto fixed_time = metric_value(metrics, kFixedTimeRateMetric))
                v = *fixed_time * f.scale;
            else if (run.ops_per_s)
                v = *run.ops_per_s * f.scale;
            break;
        case FigureKind::seconds_for:
            if (run.ops_per_s && *run.ops_per_s > 0)
                v = f.scale / *run.ops_per_s;
            break;
        case FigureKind::metric:
            if (const auto m = metric_value(metrics, f.name))
                v = *m * f.scale;
            break;
        case FigureKind::lock_field:
        case FigureKind::lock_site: {
            auto it = classes.find(f.lock);
            if (it == classes.end())
                it = classes.emplace(f.lock, lock_class(db, run_id, f.lock)).first;
            if (it->second)
                v = f.kind == FigureKind::lock_field ? lock_column(*it->second, f.name)
                                                     : lock_site(*it->second, f.name);
            break;
        }
        case FigureKind::seed_only:
            break;
        }
        out.values.push_back(v);
    }
    return out;
}

// The figures of a row's runs: each figure's median, and its range over the runs.
RowFigures read_runs(store::Database& db, const std::vector<std::int64_t>& run_ids,
                     const std::vector<engine::FigureSpec>& figures) {
    std::vector<RowFigures> each;
    for (const std::int64_t id : run_ids)
        each.push_back(read_figures(db, id, figures));
    RowFigures out = each.front();
    out.runs = static_cast<unsigned>(each.size());
    out.ranges.assign(figures.size(), std::nullopt);
    for (std::size_t f = 0; f < figures.size(); ++f) {
        std::vector<double> known;
        for (const RowFigures& r : each)
            if (r.values[f])
                known.push_back(*r.values[f]);
        if (known.empty())
            continue;
        std::sort(known.begin(), known.end());
        const std::size_t n = known.size();
        out.values[f] = n % 2 ? known[n / 2] : (known[n / 2 - 1] + known[n / 2]) / 2;
        if (n > 1)
            out.ranges[f] = std::pair(known.front(), known.back());
    }
    return out;
}

// "row: 2.1 % of the work time" where thin segments priced part of a simulated row's work.
std::optional<std::string> thin_work(store::Database& db, std::int64_t run_id,
                                     const std::string& row) {
    const auto fraction = metric_value(db.metrics(run_id), "sim.thin_work_fraction");
    if (!fraction || *fraction <= 0)
        return std::nullopt;
    return fmt::format("{} [run {}]: {:.2g} % of the work time", row, run_id, *fraction * 100);
}

std::optional<double> change_of(std::optional<double> value, std::optional<double> base,
                                const engine::SeedTable& spec) {
    if (!value || !base || *base == 0 || *value == 0)
        return std::nullopt;
    switch (spec.change) {
    case engine::ChangeStyle::ratio:
        return spec.lower_is_better ? *base / *value : *value / *base;
    case engine::ChangeStyle::percent:
        return *value / *base - 1.0;
    case engine::ChangeStyle::none:
        break;
    }
    return std::nullopt;
}

// Transfers per 1,000 traced operations of each field on `line`, most first.
std::string field_transfers(const store::C2cData& data, const c2c::LineKey& line) {
    std::map<std::string, std::uint64_t> by_field;
    for (const auto& f : data.result.fields)
        if (f.line == line)
            by_field[f.field_name] += f.counts.transfers();
    std::vector<std::pair<std::uint64_t, std::string>> ranked;
    for (const auto& [name, n] : by_field)
        if (n > 0)
            ranked.emplace_back(n, name);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    for (const auto& [n, name] : ranked)
        out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name,
                           analysis::per_thousand_text(n, data.trace.traced_ops));
    return out.empty() ? "no field transferred" : out;
}

std::string describe_line(const store::C2cData& data, const c2c::LineStats& line) {
    return fmt::format("`{}` {} transfers per 1,000 ops, holding {}; by field: {}",
                       analysis::line_name(data, line.line),
                       analysis::per_thousand_text(line.counts.transfers(), data.trace.traced_ops),
                       analysis::fields_on_line(data, line.line), field_transfers(data, line.line));
}

std::string c2c_cause(store::Database& db, std::int64_t run_id, const engine::CauseSpec& cause) {
    const auto data = store::read_c2c(db, run_id);
    if (!data)
        return "no cacheline data stored";
    if (cause.kind == engine::CauseKind::hottest_line) {
        const auto lines = analysis::ranked_lines(data->result, true);
        return lines.empty() ? "no line moved between CPUs"
                             : "hottest line " + describe_line(*data, *lines.front());
    }
    // The line with the most transfers among those holding the field.
    const c2c::LineStats* best = nullptr;
    for (const auto& l : data->result.lines) {
        const bool holds = std::any_of(data->result.fields.begin(), data->result.fields.end(),
                                       [&](const c2c::FieldStats& f) {
                                           return f.line == l.line && f.field_name == cause.field;
                                       });
        if (holds && (!best || l.counts.transfers() > best->counts.transfers()))
            best = &l;
    }
    return best ? "the busiest line holding " + cause.field + ": " + describe_line(*data, *best)
                : cause.field + " was not accessed";
}

std::string lock_cause(store::Database& db, std::int64_t run_id) {
    const locks::LockClassStats* top = nullptr;
    const auto tables = store::read_lock_tables(db, run_id);
    for (const auto& t : tables)
        for (const auto& c : t.report.classes)
            if (!top || c.total_contentions() > top->total_contentions())
                top = &c;
    if (!top)
        return "no lock statistics stored";
    std::string sites;
    for (const auto& p : top->contention_points)
        sites += fmt::format("{}{} at {}", sites.empty() ? "" : ", ", p.count, p.symbol);
    return fmt::format("{}: {} contentions of {} acquisitions{}{}", top->name,
                       top->total_contentions(),
                       top->write && top->write->acquisitions ? *top->write->acquisitions : 0,
                       sites.empty() ? "" : "; ", sites);
}

std::string metrics_cause(store::Database& db, std::int64_t run_id,
                          const std::vector<std::string>& names) {
    const std::vector<store::Metric> metrics = db.metrics(run_id);
    const auto ops = db.run(run_id)->ops;
    std::string out;
    for (const auto& name : names) {
        const auto v = metric_value(metrics, name);
        const bool found = std::any_of(metrics.begin(), metrics.end(),
                                       [&](const store::Metric& m) { return m.name == name; });
        if (!found)
            continue; // another source's metric (sim.* on real threads)
        std::string text = v ? fmt::format("{:.6g}", *v) : "–";
        // Counts over the whole run read better per operation.
        if (v && ops && *ops > 0 && !name.ends_with("_per_op") && !name.ends_with("_per_file"))
            text = fmt::format("{:.4g} per op ({:.0f} in the run)", *v / static_cast<double>(*ops),
                               *v);
        out += fmt::format("{}{} {}", out.empty() ? "" : "; ", name, text);
    }
    return out.empty() ? "none of the named metrics was stored" : out;
}

std::optional<Cause> read_cause(store::Database& db, const engine::SeedTable& spec,
                                const std::vector<RowRunIds>& runs, RowSource source) {
    Cause cause{source == RowSource::simulated ? "simulated" : "measured", {}};
    for (const unsigned r : spec.cause.rows) {
        // Cacheline causes on real threads come from the row's traced run.
        RowSource from = source;
        if (source == RowSource::measured && (spec.cause.kind == engine::CauseKind::hottest_line ||
                                              spec.cause.kind == engine::CauseKind::field_line))
            from = RowSource::traced;
        const auto& ids = runs.at(r)[from];
        if (ids.empty())
            continue;
        const std::int64_t* id = &ids.front();
        std::string text;
        switch (spec.cause.kind) {
        case engine::CauseKind::hottest_line:
        case engine::CauseKind::field_line:
            text = c2c_cause(db, *id, spec.cause);
            break;
        case engine::CauseKind::top_lock:
            text = lock_cause(db, *id);
            break;
        case engine::CauseKind::metrics:
            text = metrics_cause(db, *id, spec.cause.metrics);
            break;
        }
        cause.lines.push_back({spec.rows.at(r).label, *id, std::move(text)});
    }
    if (cause.lines.empty())
        return std::nullopt;
    return cause;
}

} // namespace

std::optional<NativeScale> read_native_scale(store::Database& db,
                                             const engine::Investigation& investigation,
                                             const ReproductionRuns& runs) {
    for (const engine::Anchor& a : investigation.anchors) {
        if (a.kind != engine::Anchor::Kind::native_scale)
            continue;
        const engine::SeedTable& spec = investigation.tables.at(a.table);
        const engine::SeedRow& row = spec.rows.at(a.row);
        const auto& ids = runs.at(a.table).at(a.row).unscaled;
        if (ids.empty() || row.seed.empty() || !row.seed[0])
            return std::nullopt;
        const auto ours = read_figures(db, ids.front(), spec.figures).values.at(0);
        if (!ours || *ours <= 0)
            return std::nullopt;
        const double seed = *row.seed[0];
        // How many times slower the seed's machine ran the same code: a rate over the seed's,
        // or the seed's time over ours.
        const double factor =
            spec.figures[0].kind == FigureKind::seconds_for ? seed / *ours : *ours / seed;
        return NativeScale{factor, a.parameter, a.how, row.label, seed, *ours, ids.front()};
    }
    return std::nullopt;
}

Reproduction read_reproduction(store::Database& db, const engine::Investigation& investigation,
                               const ReproductionRuns& runs, const ReproduceOptions& options) {
    Reproduction out{investigation.id,     investigation.title,
                     investigation.source, options.quick,
                     options.simulate,     {},
                     std::nullopt,         {},
                     investigation.anchors};
    for (std::size_t t = 0; t < investigation.tables.size(); ++t) {
        const engine::SeedTable& spec = investigation.tables[t];
        ReproducedTable table{spec, {}, {}, {}};
        for (std::size_t r = 0; r < spec.rows.size(); ++r) {
            const engine::SeedRow& row = spec.rows[r];
            ReproducedRow out_row{row.label, row.seed,     row.seed_change,
                                  false,     std::nullopt, std::nullopt};
            const RowRunIds& ids = runs.at(t).at(r);
            if (!ids.measured.empty())
                out_row.measured = read_runs(db, ids.measured, spec.figures);
            if (!ids.simulated.empty()) {
                out_row.simulated = read_runs(db, ids.simulated, spec.figures);
                if (auto thin = thin_work(db, ids.simulated.front(), row.label))
                    table.thin.push_back(std::move(*thin));
            }
            table.rows.push_back(std::move(out_row));
        }
        // Changes of figure 0 against each row's baseline, for the seed and each source.
        for (std::size_t r = 0; r < spec.rows.size(); ++r) {
            const unsigned base = spec.rows[r].baseline.value_or(spec.baseline);
            ReproducedRow& row = table.rows[r];
            if (spec.change == engine::ChangeStyle::none)
                continue;
            if (base == r) {
                row.baseline = true;
                row.seed_change = std::nullopt;
                continue;
            }
            const ReproducedRow& b = table.rows.at(base);
            if (!row.seed_change && !row.seed.empty() && !b.seed.empty())
                row.seed_change = change_of(row.seed[0], b.seed[0], spec);
            if (row.measured && b.measured)
                row.measured->change =
                    change_of(row.measured->values[0], b.measured->values[0], spec);
            if (row.simulated && b.simulated)
                row.simulated->change =
                    change_of(row.simulated->values[0], b.simulated->values[0], spec);
        }
        for (const RowSource s : {RowSource::measured, RowSource::simulated})
            if (auto c = read_cause(db, spec, runs.at(t), s))
                table.causes.push_back(std::move(*c));
        out.tables.push_back(std::move(table));
    }
    return out;
}

} // namespace hitmap::collector
