// The fidelity scorecard on a hand-made reproduction: which figures it compares, how a ratio,
// a change and a direction are judged, and that anchored figures never count as predictions.
#include "collector/reproduce/scorecard.hpp"

#include <gtest/gtest.h>

namespace hitmap::collector {
namespace {

ReproducedRow row(std::string label, double seed, std::optional<double> ours,
                  std::optional<double> seed_change = {}, std::optional<double> change = {}) {
    ReproducedRow r;
    r.label = std::move(label);
    r.seed = {seed, 10.0};
    r.seed_change = seed_change;
    if (ours) {
        r.simulated = RowFigures{};
        r.simulated->values = {*ours, 30.0};
        r.simulated->change = change;
    }
    return r;
}

// One table, figure 0 ops/s, figure 1 contentions: a baseline, a row up as the seed's, a row
// whose change has the other sign, and a row without simulated figures.
Reproduction reproduction() {
    Reproduction r;
    r.id = "test-2026";
    ReproducedTable t;
    t.spec.title = "throughput";
    t.spec.figures = {{.column = "kops/s", .unit = "ops/s"}, {.column = "contentions"}};
    t.spec.change = engine::ChangeStyle::percent;
    t.spec.rows.resize(4);
    t.spec.ratios = {{.label = "contended share", .row = 1, .numerator = 1, .denominator = 0}};
    t.rows = {row("base", 100, 150), row("patched", 200, 250, 100.0, 66.7),
              row("other", 100, 90, 10.0, -5.0), row("unsimulated", 100, std::nullopt)};
    t.rows[0].baseline = true;
    r.tables.push_back(t);
    r.anchors.push_back({.kind = engine::Anchor::Kind::native_scale,
                         .parameter = "native scale",
                         .how = "base row's throughput",
                         .table = 0,
                         .row = 0,
                         .figure = 0});
    return r;
}

const ScoreFigure& find(const Scorecard& c, const std::string& row, const std::string& figure) {
    for (const auto& f : c.figures)
        if (f.row == row && f.figure == figure)
            return f;
    throw std::runtime_error("no figure " + row + " " + figure);
}

TEST(Scorecard, JudgesRatiosChangesAndDirections) {
    const Scorecard c = score({reproduction()});
    // base: 2 figures; patched: 2 + change + the ratio; other: 2 + change; unsimulated: none.
    EXPECT_EQ(c.figures.size(), 9u);

    const ScoreFigure& base = find(c, "base", "kops/s (ops/s)");
    EXPECT_DOUBLE_EQ(base.ratio, 1.5);
    EXPECT_TRUE(base.within_2x);
    EXPECT_FALSE(base.direction_right); // a baseline has no direction
    EXPECT_EQ(base.anchored_by, "native scale");

    const ScoreFigure& up = find(c, "patched", "kops/s (ops/s)");
    EXPECT_DOUBLE_EQ(up.ratio, 1.25);
    EXPECT_EQ(up.direction_right, true); // seed 100 -> 200, ours 150 -> 250
    EXPECT_FALSE(up.anchored_by);
    const ScoreFigure& contentions = find(c, "patched", "contentions");
    EXPECT_DOUBLE_EQ(contentions.ratio, 3.0);
    EXPECT_FALSE(contentions.within_2x);
    EXPECT_EQ(contentions.direction_right, true); // neither moves: seed 10 -> 10, ours 30 -> 30

    const ScoreFigure& change = find(c, "patched", "change");
    EXPECT_NEAR(change.ratio, 0.667, 1e-9);
    EXPECT_TRUE(change.within_2x);
    EXPECT_EQ(change.direction_right, true);

    // A change of the other sign is no reproduction, whatever its size.
    const ScoreFigure& wrong = find(c, "other", "change");
    EXPECT_FALSE(wrong.within_2x);
    EXPECT_EQ(wrong.direction_right, false);

    const ScoreFigure& share = find(c, "patched", "contended share");
    EXPECT_DOUBLE_EQ(share.seed, 0.05);
    EXPECT_DOUBLE_EQ(share.ours, 0.12);
}

TEST(Scorecard, CountsOnlyPredictions) {
    const Scorecard c = score({reproduction()});
    // Everything but base's ops/s (anchored) is predicted.
    EXPECT_EQ(c.predicted, 8u);
    std::size_t within = 0, with_direction = 0, right = 0;
    for (const auto& f : c.figures)
        if (!f.anchored_by) {
            within += f.within_2x;
            with_direction += f.direction_right.has_value();
            right += f.direction_right.value_or(false);
        }
    EXPECT_EQ(c.predicted_within_2x, within);
    EXPECT_EQ(c.with_direction, with_direction);
    EXPECT_EQ(c.predicted_direction_right, right);
    ASSERT_EQ(c.anchors.size(), 1u);
    EXPECT_EQ(c.anchors.front(), "test-2026 native scale: base row's throughput");
}

TEST(Scorecard, FiguresTheSeedDidNotMeasureAlikeAreNotCompared) {
    Reproduction r = reproduction();
    r.tables[0].spec.figures[0].seed_unit = "Mbps";
    r.tables[0].spec.figures[1].compared = false;
    const Scorecard c = score({r});
    for (const auto& f : c.figures)
        EXPECT_TRUE(f.figure == "change" || f.figure == "contended share") << f.figure;
}

} // namespace
} // namespace hitmap::collector
