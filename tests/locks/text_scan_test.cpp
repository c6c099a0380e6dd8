// Number spellings: lock_stat's "%lld.%02d" microseconds with its artefacts, perf's units.
#include "collector/locks/text_scan.hpp"

#include <gtest/gtest.h>

namespace hitmap::locks {
namespace {

using Kind = LockstatTime::Kind;

TEST(LockstatTime, DecodesMicrosecondsWithTwoDecimalsToNanoseconds) {
    EXPECT_EQ(decode_lockstat_time("0.06").ns, 60);
    EXPECT_EQ(decode_lockstat_time("23656.56").ns, 23656560);
    EXPECT_EQ(decode_lockstat_time("17464026916.32").ns, 17464026916320);
    EXPECT_EQ(decode_lockstat_time("0.00").kind, Kind::value);
}

TEST(LockstatTime, RecognisesTheKernelsArtefacts) {
    // Old kernels' 15-byte buffer cut a wide value to 14 characters, without the point.
    EXPECT_EQ(decode_lockstat_time("18446744073708").kind, Kind::truncated);
    // "%lld.%02d" of a negative value; the pre-2020 s32 average overflow printed "0.-32".
    EXPECT_EQ(decode_lockstat_time("0.-32").kind, Kind::negative);
    EXPECT_EQ(decode_lockstat_time("0.-3").kind, Kind::negative);
    EXPECT_EQ(decode_lockstat_time("-1.50").kind, Kind::negative);
}

TEST(LockstatTime, RejectsWhatTheKernelNeverPrints) {
    for (const char* word :
         {"1.5", "1.234", "12", "1x.00", "", ".50", "1..00", "99999999999999999.00"})
        EXPECT_EQ(decode_lockstat_time(word).kind, Kind::malformed) << word;
}

TEST(PerfTime, ConvertsEveryUnitToNanoseconds) {
    EXPECT_EQ(perf_time_ns("740", "ns"), 740);
    EXPECT_EQ(perf_time_ns("1.23", "us"), 1230);
    EXPECT_EQ(perf_time_ns("1.41", "ms"), 1410000);
    EXPECT_EQ(perf_time_ns("2.33", "s"), 2330000000);
    EXPECT_EQ(perf_time_ns("1.50", "m"), 90000000000);
    EXPECT_EQ(perf_time_ns("64.69", "h"), 232884000000000);
    EXPECT_EQ(perf_time_ns("1.41", "xs"), std::nullopt);
    EXPECT_EQ(perf_time_ns("1,41", "ms"), std::nullopt);
}

TEST(Words, SplitOnSpacesAndTabsKeepingOffsets) {
    const auto words = split_words("\t\tab  c");
    ASSERT_EQ(words.size(), 2u);
    EXPECT_EQ(words[0].text, "ab");
    EXPECT_EQ(words[0].begin, 2u);
    EXPECT_EQ(words[1].begin, 6u);
    EXPECT_TRUE(looks_numeric("0.-32"));
    EXPECT_FALSE(looks_numeric("0x1f"));
    EXPECT_EQ(parse_hex("ffffffff8103bfc4"), 0xffffffff8103bfc4u);
    EXPECT_EQ(parse_hex("(____ptrval____)"), std::nullopt);
    EXPECT_EQ(parse_unsigned("18446744073709551616"), std::nullopt); // 2^64
}

} // namespace
} // namespace hitmap::locks
