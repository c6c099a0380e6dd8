// The warning for runs whose trace buffer filled: one run is named with its counts; a batch of
// them (a suite) is one line naming the runs as ranges, so the warnings do not bury the tables.
#include "collector/run/software_c2c.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

collector::TraceCap cap(std::uint64_t traced, std::uint64_t ops, std::uint64_t mib = 64) {
    return {.traced_ops = traced, .ops = ops, .dropped_records = 5, .buffer_mib = mib};
}

TEST(TraceCap, OneRunIsNamedWithItsCounts) {
    EXPECT_EQ(collector::trace_caps_warning({{7, cap(100, 1000)}}),
              "run 7: its trace holds 100 of its 1000 operations (5 records dropped): a thread's "
              "64 MiB trace buffer filled, so its cacheline tables describe the start of the run; "
              "raise --trace-mb or spread the trace with --trace-window");
}

TEST(TraceCap, ABatchIsOneLineWithTheRunsAsRanges) {
    const std::string line = collector::trace_caps_warning(
        {{44, cap(100, 1000)}, {43, cap(300, 1000)}, {45, cap(200, 1000)}, {9, cap(0, 1000)}});
    EXPECT_THAT(line, HasSubstr("4 runs filled a thread's 64 MiB trace buffer"));
    EXPECT_THAT(line, HasSubstr("(15 % on average)"));
    EXPECT_THAT(line, HasSubstr("runs 9, 43-45;"));
    EXPECT_EQ(line.find('\n'), std::string::npos);
}

TEST(TraceCap, BuffersOfDifferentSizesAreNotGivenOne) {
    const std::string line =
        collector::trace_caps_warning({{1, cap(1, 10, 1)}, {2, cap(1, 10, 64)}});
    EXPECT_THAT(line, HasSubstr("filled a thread's trace buffer before"));
}

} // namespace
} // namespace hitmap::testing
