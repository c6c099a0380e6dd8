// Command-line values: every accepted form, every malformed one, and the limits.
#include "collector/cli/cli_options.hpp"

#include <gtest/gtest.h>

namespace hitmap::cli {
namespace {

using namespace std::chrono_literals;

TEST(CliOptions, DurationsInEveryUnit) {
    EXPECT_EQ(parse_duration("500ms"), 500ms);
    EXPECT_EQ(parse_duration("2.5s"), 2500ms);
    EXPECT_EQ(parse_duration("1m"), 60s);
    EXPECT_EQ(parse_duration("100us"), 100us);
    EXPECT_EQ(parse_duration("7ns"), 7ns);
    EXPECT_EQ(parse_duration("24h"), 24h);
}

TEST(CliOptions, MalformedAndOutOfRangeDurationsAreRefused) {
    for (const char* bad :
         {"", "soon", "5", "-1s", "1e12s", "25h", "0s", "0.1ns", "s", "1.2.3s", "nan s", "infs"})
        EXPECT_THROW(parse_duration(bad), UsageError) << bad;
}

TEST(CliOptions, SizesInMebibytesByDefault) {
    EXPECT_EQ(parse_megabytes("8"), std::size_t{8} << 20);
    EXPECT_EQ(parse_megabytes("8M"), std::size_t{8} << 20);
    EXPECT_EQ(parse_megabytes("1G"), std::size_t{1} << 30);
    EXPECT_EQ(parse_megabytes("0.5"), std::size_t{1} << 19);
    for (const char* bad : {"", "x", "-1", "0.001", "1T", "1e9G", "2048G"})
        EXPECT_THROW(parse_megabytes(bad), UsageError) << bad;
}

TEST(CliOptions, CountsAreDecimalDigitsWithinTheirRange) {
    EXPECT_EQ(parse_count("1", "--n", 1, 10), 1u);
    EXPECT_EQ(parse_count("10", "--n", 1, 10), 10u);
    for (const char* bad :
         {"", "0", "11", "-5", "+3", "1e3", "0x10", " 3", "3 ", "99999999999999999999"})
        EXPECT_THROW(parse_count(bad, "--n", 1, 10), UsageError) << bad;
    try {
        parse_count("-5", "--iterations", 1, 10);
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "--iterations '-5' must be a whole number in 1..10");
    }
}

TEST(CliOptions, TraceWindowsAreOnOverPeriod) {
    const engine::TraceWindow w = parse_trace_window("200us/2ms");
    EXPECT_EQ(w.on_ns, 200'000u);
    EXPECT_EQ(w.period_ns, 2'000'000u);
    EXPECT_EQ(parse_trace_window("").period_ns, 0u) << "no window: trace all the time";
    for (const char* bad : {"200us", "2ms/200us", "1ms/1ms", "/2ms", "1ms/", "a/b"})
        EXPECT_THROW(parse_trace_window(bad), UsageError) << bad;
}

TEST(CliOptions, RepeatedParamsMustAgree) {
    EXPECT_EQ(parse_params({"batch=64", "batch=64"})["batch"], 64);
    EXPECT_THROW(parse_params({"batch=16", "batch=64"}), UsageError);
    EXPECT_THROW(parse_params({"batch"}), UsageError);
    EXPECT_THROW(parse_params({"=3"}), UsageError);
}

} // namespace
} // namespace hitmap::cli
