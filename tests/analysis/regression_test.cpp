// The regression gates of `compare` on synthetic figures: parsing, which changes pass a gate,
// the floor, matching across databases, the noise warning and the robot line.
#include "collector/analysis/regression.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

using ::testing::HasSubstr;

RunFigures run(std::int64_t id, const std::string& variant, const std::string& source,
               std::vector<Figure> figures) {
    return {id,
            {"page-counter-charge", variant, 2, "{}", source},
            source.starts_with("simulated") ? store::Source::simulated : store::Source::measured,
            std::move(figures)};
}

Figure ops(double v) {
    return {RegressionKind::ops, "ops_per_s", v, "ops/s"};
}
Figure usage(double v) {
    return {RegressionKind::transfers, "transfers[top:memory.usage]", v, "per 1k ops"};
}

TEST(Gates, ParseKindsSignsAndPercentages) {
    const auto gates = parse_gates("ops:-5%, transfers:+20%,contentions:12.5%,waits:-1%");
    ASSERT_EQ(gates.size(), 4u);
    EXPECT_EQ(gates[0].kind, RegressionKind::ops);
    EXPECT_DOUBLE_EQ(gates[0].threshold, -0.05);
    EXPECT_DOUBLE_EQ(gates[1].threshold, 0.2);
    // Without a sign, the direction that hurts: a rise of contentions.
    EXPECT_EQ(gates[2].kind, RegressionKind::contentions);
    EXPECT_DOUBLE_EQ(gates[2].threshold, 0.125);
    EXPECT_DOUBLE_EQ(gates[3].threshold, -0.01);
    EXPECT_DOUBLE_EQ(parse_gates("ops:5%")[0].threshold, -0.05);
}

TEST(Gates, ASourcePrefixGatesOnlyThatSource) {
    const auto gates = parse_gates("simulated.ops:-1%,measured.ops:-15%");
    ASSERT_EQ(gates.size(), 2u);
    EXPECT_EQ(gates[0].source, store::Source::simulated);
    const auto c = compare_matched(
        {run(1, "a", "simulated:x", {ops(100)}), run(2, "a", "measured", {ops(100)})},
        {run(3, "a", "simulated:x", {ops(98)}), run(4, "a", "measured", {ops(90)})});
    const auto v = check_gates(c, gates);
    ASSERT_EQ(v.size(), 1u); // -2 % simulated trips -1 %; -10 % measured is within -15 %
    EXPECT_THAT(robot_line(c.changes[v[0].change], v[0].gate),
                HasSubstr("simulated:x: ops_per_s 100 -> 98 ops/s (1 vs 1 run; gate "
                          "simulated.ops:-1%)"));
}

TEST(Gates, RefuseWhatTheyCannotRead) {
    for (const char* bad : {"", "ops", "ops:5", "speed:-5%", "ops:-x%", "ops:0%", "ops:-5%,",
                            "ops:--5%", "ops:nan%", "guessed.ops:-5%"})
        EXPECT_THROW(parse_gates(bad), GateSyntaxError) << bad;
    try {
        parse_gates("ops:-5%,speed:+1%");
        FAIL();
    } catch (const GateSyntaxError& e) {
        EXPECT_THAT(e.what(), HasSubstr("'speed:+1%' names no figure kind"));
    }
}

TEST(Gates, ATenPercentFallTripsFiveAndNotFifteen) {
    const auto c = compare_runs({run(1, "v6.1", "measured", {ops(100)})},
                                {run(2, "v6.1", "measured", {ops(90)})}, "g");
    ASSERT_EQ(c.changes.size(), 1u);
    EXPECT_NEAR(*c.changes[0].change, -0.10, 1e-12);
    EXPECT_EQ(check_gates(c, parse_gates("ops:-5%")).size(), 1u);
    EXPECT_TRUE(check_gates(c, parse_gates("ops:-15%")).empty());
    EXPECT_TRUE(check_gates(c, parse_gates("transfers:+1%")).empty());
    // A gain does not trip a fall.
    const auto gain = compare_runs({run(1, "v6.1", "measured", {ops(90)})},
                                   {run(2, "v6.1", "measured", {ops(100)})}, "g");
    EXPECT_TRUE(check_gates(gain, parse_gates("ops:-5%")).empty());
}

TEST(Gates, SimulatedFiguresAreGatedExactly) {
    // 20 % exactly is past a 20 % gate; a hair less is not.
    const auto at = compare_runs({run(1, "v6.1", "simulated:x", {usage(10)})},
                                 {run(2, "v6.1", "simulated:x", {usage(12)})}, "g");
    EXPECT_TRUE(at.changes[0].deterministic());
    EXPECT_EQ(check_gates(at, parse_gates("transfers:+20%")).size(), 1u);
    const auto below = compare_runs({run(1, "v6.1", "simulated:x", {usage(10)})},
                                    {run(2, "v6.1", "simulated:x", {usage(11.99)})}, "g");
    EXPECT_TRUE(check_gates(below, parse_gates("transfers:+20%")).empty());
    EXPECT_TRUE(noisy_groups(at).empty());
}

TEST(Gates, SmallFiguresAreNotGatedAndNewOnesAre) {
    // 0.1 -> 0.5 per 1k ops is +400 % of almost nothing: under the floor on both sides.
    const auto tiny = compare_runs({run(1, "a", "simulated:x", {usage(0.1)})},
                                   {run(2, "a", "simulated:x", {usage(0.5)})}, "g");
    EXPECT_TRUE(check_gates(tiny, parse_gates("transfers:+20%")).empty());
    // A hot field that appears (a new false sharing) passes any rise.
    const auto fresh = compare_runs({run(1, "a", "simulated:x", {ops(1)})},
                                    {run(2, "a", "simulated:x", {ops(1), usage(40)})}, "g");
    const auto v = check_gates(fresh, parse_gates("transfers:+20%"));
    ASSERT_EQ(v.size(), 1u);
    EXPECT_THAT(robot_line(fresh.changes[v[0].change], v[0].gate),
                HasSubstr("new regression of g: transfers[top:memory.usage] – -> 40"));
}

TEST(Compare, DatabasesMatchByWhatRanAndNeverAcrossSources) {
    const std::vector<RunFigures> base{
        run(1, "v6.1", "measured", {ops(100)}), run(2, "v6.1", "measured", {ops(110)}),
        run(3, "v6.1", "simulated:x", {ops(500)}), run(4, "v6.0", "measured", {ops(50)})};
    const std::vector<RunFigures> current{run(7, "v6.1", "measured", {ops(84)}),
                                          run(8, "v6.1", "simulated:x", {ops(500)}),
                                          run(9, "v6.15", "measured", {ops(70)})};
    const auto c = compare_matched(base, current);
    ASSERT_EQ(c.changes.size(), 2u);
    EXPECT_EQ(c.only_in_base, std::vector<std::string>{"page-counter-charge v6.0, 2 threads, "
                                                       "measured"});
    EXPECT_EQ(c.only_in_current.size(), 1u);
    const auto& measured = c.changes[0];
    EXPECT_EQ(measured.group, "page-counter-charge v6.1, 2 threads, measured");
    EXPECT_EQ(measured.base->n, 2u);
    EXPECT_DOUBLE_EQ(measured.base->mean, 105);
    EXPECT_DOUBLE_EQ(measured.base->min, 100);
    EXPECT_NEAR(*measured.change, 84.0 / 105 - 1, 1e-12);
    EXPECT_DOUBLE_EQ(*c.changes[1].change, 0);

    // Two measured runs against one: a noise warning for that group only.
    EXPECT_EQ(noisy_groups(c), std::vector<std::string>{measured.group});
    const auto violations = check_gates(c, parse_gates("ops:-5%"));
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(robot_line(c.changes[violations[0].change], violations[0].gate),
              "-20.0% regression of page-counter-charge v6.1, 2 threads, measured: ops_per_s "
              "105 -> 84 ops/s (2 vs 1 run; gate ops:-5%)");
}

TEST(Compare, OneLinePerGroupAndGateNamesTheWorstFigure) {
    const auto c =
        compare_runs({run(1, "a", "simulated:x",
                          {usage(10), {RegressionKind::transfers, "transfers[b]", 10, ""}})},
                     {run(2, "a", "simulated:x",
                          {usage(13), {RegressionKind::transfers, "transfers[b]", 30, ""}})},
                     "g");
    const auto summary = summarize(c, check_gates(c, parse_gates("transfers:+20%")));
    ASSERT_EQ(summary.size(), 1u);
    EXPECT_EQ(summary[0].count, 2u);
    EXPECT_EQ(c.changes[summary[0].worst.change].name, "transfers[b]");
}

TEST(Compare, DifferingParametersAreNamed) {
    RunKey a{"w", "v", 2, R"({"batch":32,"layout.mem_cgroup":"v6.1"})", "simulated"};
    RunKey b = a;
    b.params_json = R"({"batch":32,"layout.mem_cgroup":"v6.0","phase":8})";
    EXPECT_EQ(
        differing_params(a, b),
        (std::vector<std::string>{R"(layout.mem_cgroup: "v6.1" -> "v6.0")", "phase: – -> 8"}));
}

} // namespace
} // namespace hitmap::analysis
