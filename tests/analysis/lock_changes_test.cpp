// Lock classes compared across two runs and wait histograms as bars, on synthetic lock tables
// shaped like a lock_stat import.
#include "collector/analysis/lock_changes.hpp"
#include "tests/support/lock_table.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

using hitmap::testing::lock_table;

TEST(LockChanges, SumsSidesAndKeepsUnknownWaitsUnknown) {
    const auto rows = lock_changes({lock_table(100)}, {lock_table(10)});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "&counter->lock");            // most contentions on either side first
    EXPECT_EQ(rows[1].contentions_before.value(), 105.0); // write and read sides summed
    EXPECT_EQ(rows[1].contentions_after.value(), 15.0);
    EXPECT_EQ(std::lround(*rows[1].change_percent()), -86);
    EXPECT_DOUBLE_EQ(rows[1].wait_before_us.value(), 50.0 + 0.6); // total_ns 50,000 and 600
    EXPECT_FALSE(rows[0].wait_before_us) << "a class without wait times has no total, not 0";
}

TEST(LockChanges, AClassOnOneSideOnlyHasNoChange) {
    store::LockData only_after = lock_table(1);
    only_after.report.classes[1].name = "&new->lock";
    const auto rows = lock_changes({lock_table(100)}, {only_after});
    ASSERT_EQ(rows.size(), 3u);
    for (const auto& r : rows)
        if (r.name == "&new->lock") {
            EXPECT_FALSE(r.contentions_before);
            EXPECT_FALSE(r.change_percent());
        }
}

TEST(HistogramBars, OneBarPerBucketFromTheFirstToTheLastBusyOne) {
    const auto bars = histogram_bars(lock_table(1).histograms.at("&rq->lock"));
    ASSERT_EQ(bars.size(), 3u);
    EXPECT_EQ(bars[0].label, "512ns");
    EXPECT_EQ(bars[1].label, "1.02µs");
    EXPECT_EQ(bars[2].label, "2.05µs");
    EXPECT_EQ(bars[0].count, 1);
    EXPECT_EQ(bars[1].count, 0);
}

TEST(HistogramBars, ThinTailsAreSummedNotDropped) {
    locks::WaitHistogram tails;
    for (int i = 0; i < 5000; ++i)
        tails.record(600);
    tails.record(3);         // below 1/1000 of the peak
    tails.record(1'000'000); // above
    const auto bars = histogram_bars(tails);
    ASSERT_EQ(bars.size(), 3u);
    EXPECT_EQ(bars[0].label, "<512ns");
    EXPECT_EQ(bars[1].count, 5000);
    EXPECT_EQ(bars[2].label, "≥1.02µs");
    EXPECT_EQ(bars[2].count, 1);
    EXPECT_TRUE(histogram_bars(locks::WaitHistogram{}).empty());
}

} // namespace
} // namespace hitmap::analysis
