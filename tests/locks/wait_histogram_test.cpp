// WaitHistogram: log2 buckets, merging, JSON.
#include "collector/locks/wait_histogram.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hitmap::locks {
namespace {

TEST(WaitHistogram, BucketIIsFromTwoToTheITo2ToTheIPlusOne) {
    EXPECT_EQ(WaitHistogram::bucket_of(0), 0u);
    EXPECT_EQ(WaitHistogram::bucket_of(1), 0u);
    EXPECT_EQ(WaitHistogram::bucket_of(2), 1u);
    EXPECT_EQ(WaitHistogram::bucket_of(3), 1u);
    EXPECT_EQ(WaitHistogram::bucket_of(1023), 9u);
    EXPECT_EQ(WaitHistogram::bucket_of(1024), 10u);
    EXPECT_EQ(WaitHistogram::bucket_of(~std::uint64_t{0}), 63u);
}

TEST(WaitHistogram, MergeAddsBucketwise) {
    WaitHistogram a;
    WaitHistogram b;
    a.record(1500);
    a.record(1600);
    b.record(1024);
    b.record(5);
    a.merge(b);
    EXPECT_EQ(a.counts[10], 3u);
    EXPECT_EQ(a.counts[2], 1u);
    EXPECT_EQ(a.total(), 4u);
}

TEST(WaitHistogram, JsonListsNonEmptyBucketsAndReadsBack) {
    WaitHistogram h;
    h.record(3);
    h.record(1 << 20);
    h.record(1 << 20);
    const auto json = h.to_json();
    EXPECT_EQ(json, nlohmann::json::parse(R"({"unit": "ns", "buckets": [
        {"log2": 1, "lo_ns": 2, "count": 1},
        {"log2": 20, "lo_ns": 1048576, "count": 2}]})"));
    EXPECT_EQ(WaitHistogram::from_json(json), h);
    EXPECT_THROW(
        WaitHistogram::from_json(nlohmann::json::parse(R"({"unit": "us", "buckets": []})")),
        std::invalid_argument);
    EXPECT_THROW(WaitHistogram::from_json(nlohmann::json::parse(
                     R"({"unit": "ns", "buckets": [{"log2": 64, "count": 1}]})")),
                 std::invalid_argument);
}

} // namespace
} // namespace hitmap::locks
