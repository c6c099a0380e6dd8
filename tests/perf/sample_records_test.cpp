#include "collector/perf/errors.hpp"
#include "collector/perf/sample_records.hpp"
#include "collector/perf/sampler.hpp"
#include "tests/perf/fake_ring.hpp"

#include <cstring>
#include <gtest/gtest.h>
#include <linux/perf_event.h>

namespace hitmap::perf {
namespace {

// parse_sample_records over everything the fake ring holds.
SampleBatch parse(const FakeRing& ring, std::uint64_t sample_type) {
    return parse_sample_records(ring.bytes(), ring.tail(), ring.head(), sample_type);
}

std::uint64_t pack(std::uint32_t low, std::uint32_t high) {
    return static_cast<std::uint64_t>(high) << 32 | low;
}

// One sample in memory_sample_type() layout: ip, pid/tid, time, addr, cpu/res, weight, data_src.
std::vector<std::uint64_t> sample_words(std::uint64_t n) {
    return {0x400000 + n,
            pack(100, 200 + static_cast<std::uint32_t>(n)),
            1000 * n,
            0x7f0000001000 + 64 * n,
            pack(static_cast<std::uint32_t>(n % 2), 0),
            30 + n,
            0x10268100142 + n};
}

void expect_sample(const MemorySample& s, std::uint64_t n) {
    EXPECT_EQ(s.ip, 0x400000 + n);
    EXPECT_EQ(s.pid, 100u);
    EXPECT_EQ(s.tid, 200 + n);
    EXPECT_EQ(s.time, 1000 * n);
    EXPECT_EQ(s.addr, 0x7f0000001000 + 64 * n);
    EXPECT_EQ(s.cpu, n % 2);
    EXPECT_EQ(s.weight, 30 + n);
    EXPECT_EQ(s.data_src, 0x10268100142 + n);
}

TEST(ParseSampleRecords, SamplesLostAndOtherRecordsWithOneSampleWrappingTheEnd) {
    // 64-byte samples starting 32 bytes before the end of a 256-byte ring, three laps in.
    FakeRing ring(256, 3 * 256 + 224);
    ring.record(PERF_RECORD_SAMPLE, sample_words(1)); // wraps
    ring.record(PERF_RECORD_LOST, {/*id*/ 42, /*lost*/ 7});
    ring.record(PERF_RECORD_COMM, {pack(100, 200), 0x72656b726f77 /* "worker" */, 0});
    ring.record(PERF_RECORD_SAMPLE, sample_words(2));
    ring.record(PERF_RECORD_SAMPLE, sample_words(3));
    ASSERT_LE(ring.head() - ring.tail(), 256u);

    const SampleBatch batch = parse(ring, memory_sample_type());
    ASSERT_EQ(batch.samples.size(), 3u);
    for (std::uint64_t n = 1; n <= 3; ++n)
        expect_sample(batch.samples[n - 1], n);
    EXPECT_EQ(batch.lost_records, 1u);
    EXPECT_EQ(batch.lost_samples, 7u);
    EXPECT_EQ(batch.other_records, 1u);
}

TEST(ParseSampleRecords, HeaderSplitAcrossTheEnd) {
    FakeRing ring(256, 252);
    ring.record(PERF_RECORD_SAMPLE, sample_words(5));
    const SampleBatch batch = parse(ring, memory_sample_type());
    ASSERT_EQ(batch.samples.size(), 1u);
    expect_sample(batch.samples[0], 5);
}

TEST(ParseSampleRecords, EmptyWindowIsEmpty) {
    const FakeRing ring(256, 1000);
    const SampleBatch batch = parse(ring, memory_sample_type());
    EXPECT_TRUE(batch.samples.empty());
    EXPECT_EQ(batch.lost_records + batch.other_records, 0u);
}

// perf c2c's layout: identifier first, id/period skipped, WEIGHT_STRUCT's var1 as the weight.
TEST(ParseSampleRecords, SkipsFieldsItDoesNotKeep) {
    const std::uint64_t type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
                               PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
                               PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT |
                               PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
    FakeRing ring(512, 0);
    ring.record(PERF_RECORD_SAMPLE, {/*identifier*/ 9, /*ip*/ 0x401000, pack(1, 2), /*time*/ 77,
                                     /*addr*/ 0xdead0, /*id*/ 9, pack(3, 0), /*period*/ 4000,
                                     /*weight struct*/ pack(250, 0x00120034), 0x10668100842,
                                     /*phys*/ 0x1234000});
    const SampleBatch batch = parse(ring, type);
    ASSERT_EQ(batch.samples.size(), 1u);
    const MemorySample& s = batch.samples[0];
    EXPECT_EQ(s.ip, 0x401000u);
    EXPECT_EQ(s.pid, 1u);
    EXPECT_EQ(s.tid, 2u);
    EXPECT_EQ(s.time, 77u);
    EXPECT_EQ(s.addr, 0xdead0u);
    EXPECT_EQ(s.cpu, 3u);
    EXPECT_EQ(s.weight, 250u);
    EXPECT_EQ(s.data_src, 0x10668100842u);
}

TEST(ParseSampleRecords, VariableSizeFieldsAreRejected) {
    const FakeRing ring(256, 0);
    EXPECT_THROW(parse(ring, memory_sample_type() | PERF_SAMPLE_CALLCHAIN), PerfInvalidConfig);
    EXPECT_THROW(parse(ring, PERF_SAMPLE_IP | PERF_SAMPLE_RAW), PerfInvalidConfig);
}

TEST(ParseSampleRecords, CorruptRecordsAreReported) {
    FakeRing overlong(256, 0);
    overlong.bare_header(PERF_RECORD_SAMPLE, 64);
    EXPECT_THROW(parse(overlong, memory_sample_type()), PerfCorruptRecord);

    FakeRing empty_size(256, 0);
    empty_size.bare_header(PERF_RECORD_MMAP, 0);
    EXPECT_THROW(parse(empty_size, memory_sample_type()), PerfCorruptRecord);

    FakeRing short_sample(256, 0);
    short_sample.record(PERF_RECORD_SAMPLE, {0x400000, pack(1, 2)});
    EXPECT_THROW(parse(short_sample, memory_sample_type()), PerfCorruptRecord);

    const FakeRing ring(256, 0);
    EXPECT_THROW(parse_sample_records(ring.bytes(), 0, 512, memory_sample_type()),
                 PerfCorruptRecord);
}

// A record that is only its header has an empty body. fuzz_sample_records found the copy of
// that body passing a null pointer to memcpy (UB, reported under -fsanitize=undefined).
TEST(ParseSampleRecords, HeaderOnlyRecordsHaveAnEmptyBody) {
    FakeRing ring(64, 60); // the second header straddles the end of the ring
    ring.bare_header(PERF_RECORD_SAMPLE, sizeof(perf_event_header));
    ring.bare_header(PERF_RECORD_THROTTLE, sizeof(perf_event_header));
    const SampleBatch batch = parse(ring, 0); // sample_type 0: a sample has no fields
    ASSERT_EQ(batch.samples.size(), 1u);
    EXPECT_EQ(batch.samples[0].ip, 0u);
    EXPECT_EQ(batch.other_records, 1u);

    std::vector<std::size_t> body_sizes;
    for_each_record(
        ring.bytes(), ring.tail(), ring.head(),
        [&](std::uint32_t, std::span<const std::byte> body) { body_sizes.push_back(body.size()); });
    EXPECT_EQ(body_sizes, (std::vector<std::size_t>{0, 0}));

    EXPECT_THROW(parse(ring, memory_sample_type()), PerfCorruptRecord); // fields missing
}

} // namespace
} // namespace hitmap::perf
