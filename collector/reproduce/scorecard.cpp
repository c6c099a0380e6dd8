#include "collector/reproduce/scorecard.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::collector {

namespace {

using engine::Anchor;

int sign(double v) {
    return (v > 0) - (v < 0);
}

// Whether a change points the seed's way: a ratio above or below 1, a percentage's sign.
bool same_direction(double seed, double ours, engine::ChangeStyle style) {
    return style == engine::ChangeStyle::ratio
               ? (seed > 1) == (ours > 1) && (seed < 1) == (ours < 1)
               : sign(seed) == sign(ours);
}

// The parameter that figure `figure` of a row (or, with `change`, the row's change) set.
std::optional<std::string> anchor_of(const std::vector<Anchor>& anchors, unsigned table,
                                     unsigned row, bool change, std::size_t figure = 0) {
    for (const Anchor& a : anchors)
        if (a.table == table && a.row == row && a.change == change &&
            (change || a.figure == figure))
            return a.parameter;
    return std::nullopt;
}

ScoreFigure figure(const Reproduction& r, const ReproducedTable& t, const ReproducedRow& row,
                   std::string what, double seed, double ours) {
    ScoreFigure f{r.id, t.spec.title, row.label,    std::move(what), seed, ours,
                  0,    false,        std::nullopt, std::nullopt};
    f.ratio = seed != 0 ? ours / seed : 0;
    f.within_2x = f.ratio >= 1 / kWithinFactor && f.ratio <= kWithinFactor;
    return f;
}

std::string with_unit(const engine::FigureSpec& f) {
    return f.unit.empty() ? f.column : fmt::format("{} ({})", f.column, f.unit);
}

void score_table(const Reproduction& r, unsigned ti, std::vector<ScoreFigure>& out) {
    const ReproducedTable& t = r.tables[ti];
    for (unsigned ri = 0; ri < t.rows.size(); ++ri) {
        const ReproducedRow& row = t.rows[ri];
        if (!row.simulated)
            continue;
        const RowFigures& ours = *row.simulated;
        const unsigned base = t.spec.rows[ri].baseline.value_or(t.spec.baseline);
        const ReproducedRow& b = t.rows.at(base);
        for (std::size_t fi = 0; fi < t.spec.figures.size(); ++fi) {
            const engine::FigureSpec& spec = t.spec.figures[fi];
            if (!spec.compared || !spec.seed_unit.empty() || fi >= row.seed.size() ||
                !row.seed[fi] || !ours.values[fi])
                continue;
            ScoreFigure f = figure(r, t, row, with_unit(spec), *row.seed[fi], *ours.values[fi]);
            if (!row.baseline && fi < b.seed.size() && b.seed[fi] && b.simulated &&
                b.simulated->values[fi])
                f.direction_right = sign(*row.seed[fi] - *b.seed[fi]) ==
                                    sign(*ours.values[fi] - *b.simulated->values[fi]);
            f.anchored_by = anchor_of(r.anchors, ti, ri, false, fi);
            out.push_back(std::move(f));
        }
        if (!row.baseline && row.seed_change && ours.change) {
            ScoreFigure f = figure(r, t, row, "change", *row.seed_change, *ours.change);
            // A percentage of the other sign is no reproduction, whatever its size.
            f.within_2x = f.within_2x && sign(*row.seed_change) == sign(*ours.change);
            f.direction_right = same_direction(*row.seed_change, *ours.change, t.spec.change);
            f.anchored_by = anchor_of(r.anchors, ti, ri, true);
            out.push_back(std::move(f));
        }
    }
    for (const engine::FigureRatio& q : t.spec.ratios) {
        const ReproducedRow& row = t.rows.at(q.row);
        const auto value =
            [&](const std::vector<std::optional<double>>& v) -> std::optional<double> {
            if (std::max(q.numerator, q.denominator) >= v.size() || !v[q.numerator] ||
                !v[q.denominator] || *v[q.denominator] == 0)
                return std::nullopt;
            return *v[q.numerator] / *v[q.denominator];
        };
        const auto seed = value(row.seed);
        const auto ours = row.simulated ? value(row.simulated->values) : std::nullopt;
        if (seed && ours)
            out.push_back(figure(r, t, row, q.label, *seed, *ours));
    }
}

} // namespace

Scorecard score(const std::vector<Reproduction>& all) {
    Scorecard card;
    for (const Reproduction& r : all) {
        for (unsigned t = 0; t < r.tables.size(); ++t)
            score_table(r, t, card.figures);
        for (const Anchor& a : r.anchors)
            card.anchors.push_back(fmt::format("{} {}: {}", r.id, a.parameter, a.how));
    }
    for (const ScoreFigure& f : card.figures) {
        if (f.anchored_by)
            continue;
        ++card.predicted;
        card.predicted_within_2x += f.within_2x;
        if (f.direction_right) {
            ++card.with_direction;
            card.predicted_direction_right += *f.direction_right;
        }
    }
    return card;
}

} // namespace hitmap::collector
