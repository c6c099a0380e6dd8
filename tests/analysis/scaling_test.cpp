// Scaling series on synthetic run lists: one curve per variant, source and simulated machine,
// and where a curve stops growing.
#include "collector/analysis/scaling.hpp"

#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

struct Runs {
    void add(store::Source source, std::optional<std::string> machine, int threads,
             double ops_per_s, store::RunStatus status = store::RunStatus::complete) {
        store::RunRecord r;
        r.workload = "w";
        r.variant = "v";
        r.source = source;
        r.status = status;
        r.threads = threads;
        r.ops_per_s = ops_per_s;
        r.simulated_machine = std::move(machine);
        runs.push_back(r);
    }
    std::vector<store::RunRecord> runs;
};

// Issue 11: a simulated machine's curve is its own, named by the machine, and says where it
// stops growing; a curve still growing at its last point says nothing.
TEST(Scaling, KeepsSimulatedMachinesApartAndFindsWhereACurveStops) {
    Runs r;
    r.add(store::Source::measured, std::nullopt, 1, 10);
    r.add(store::Source::measured, std::nullopt, 2, 19);
    for (const auto& [threads, ops] :
         {std::pair{1, 10.0}, {8, 50.0}, {16, 80.0}, {32, 78.0}, {72, 81.0}})
        r.add(store::Source::simulated, "big", threads, ops);
    r.add(store::Source::simulated, "small", 1, 5);
    r.add(store::Source::simulated, "small", 4, 15);
    const auto series = scaling_series(r.runs, "w");
    ASSERT_EQ(series.size(), 3u);
    EXPECT_EQ(series[0].name, "v (measured)");
    EXPECT_FALSE(series[0].stops_growing_at); // still growing at 2
    EXPECT_EQ(series[1].name, "v (simulated big)");
    EXPECT_EQ(series[1].stops_growing_at, std::optional<int>(16)); // 80 is within 5 % of 81
    EXPECT_EQ(series[2].name, "v (simulated small)");
    EXPECT_EQ(series[2].points.size(), 2u);
    EXPECT_FALSE(series[2].stops_growing_at);
    EXPECT_TRUE(scaling_series(r.runs, "other").empty());
}

// Issue 35: two points that fall do not make a curve that "stops growing at 1"; three do.
TEST(Scaling, TwoPointsNeverStopGrowing) {
    Runs r;
    r.add(store::Source::traced, std::nullopt, 1, 10);
    r.add(store::Source::traced, std::nullopt, 2, 9.8);
    EXPECT_FALSE(scaling_series(r.runs, "w").at(0).stops_growing_at);
    r.add(store::Source::traced, std::nullopt, 4, 9.9);
    EXPECT_EQ(scaling_series(r.runs, "w").at(0).stops_growing_at, std::optional<int>(1));
}

TEST(Scaling, RepeatsGiveMedianAndSpreadAndUnfinishedRunsAreLeftOut) {
    Runs r;
    for (double ops : {10.0, 14.0, 11.0, 13.0})
        r.add(store::Source::measured, std::nullopt, 2, ops);
    r.add(store::Source::measured, std::nullopt, 2, 1000, store::RunStatus::failed);
    r.add(store::Source::predicted, std::nullopt, 2, 1000);
    const auto series = scaling_series(r.runs, "w");
    ASSERT_EQ(series.size(), 1u);
    ASSERT_EQ(series[0].points.size(), 1u);
    const ScalingPoint& p = series[0].points[0];
    EXPECT_EQ(p.median, 12.0);
    EXPECT_EQ(p.min, 10.0);
    EXPECT_EQ(p.max, 14.0);
    EXPECT_EQ(p.repeats, 4);
}

} // namespace
} // namespace hitmap::analysis
