// The kernel lock-wait tracepoints: the format files of this machine's kernel (tests/perf/data,
// copied from tracefs), decoding synthetic samples, pairing begin/end, kallsyms names.
#include "collector/perf/errors.hpp"
#include "collector/perf/kernel_symbols.hpp"
#include "collector/perf/lock_events.hpp"
#include "collector/perf/tracepoint_format.hpp"
#include "tests/perf/fake_ring.hpp"
#include "tests/support/read_file.hpp"

#include <cstring>
#include <gtest/gtest.h>

namespace hitmap::perf {
namespace {

TracepointFormat format_file(const char* name) {
    return parse_tracepoint_format(
        testing::read_file(std::filesystem::path(HITMAP_PERF_TEST_DATA) / name));
}

TEST(TracepointFormat, ReadsTheKernelsLockTracepoints) {
    const auto begin = format_file("lock_contention_begin.format");
    EXPECT_EQ(begin.name, "contention_begin");
    EXPECT_EQ(begin.id, 408u);
    ASSERT_TRUE(begin.fields.count("lock_addr"));
    EXPECT_EQ(begin.fields.at("lock_addr").offset, 8u);
    EXPECT_EQ(begin.fields.at("lock_addr").size, 8u);
    EXPECT_EQ(begin.fields.at("flags").offset, 16u);
    EXPECT_EQ(begin.fields.at("common_pid").size, 4u);
    EXPECT_TRUE(begin.fields.at("common_pid").is_signed);
    const auto end = format_file("lock_contention_end.format");
    EXPECT_EQ(end.id, 407u);
    EXPECT_TRUE(end.fields.at("ret").is_signed);
}

TEST(TracepointFormat, ReadSignExtendsSignedFieldsAndRefusesShortPayloads) {
    const auto end = format_file("lock_contention_end.format");
    std::vector<std::byte> raw(20);
    const std::int32_t ret = -4;
    std::memcpy(raw.data() + 16, &ret, 4);
    EXPECT_EQ(end.read(raw, "ret"), -4);
    EXPECT_EQ(end.read(std::span(raw).first(18), "ret"), std::nullopt);
    EXPECT_EQ(end.read(raw, "no_such_field"), std::nullopt);
}

TEST(TracepointFormat, MalformedFieldLineNamesItsLine) {
    try {
        parse_tracepoint_format("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:zero;\tsize:4;"
                                "\tsigned:1;\n");
        FAIL() << "parsed";
    } catch (const PerfInvalidConfig& e) {
        EXPECT_NE(std::string(e.what()).find("line 4"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_tracepoint_format("name: x\nformat:\n"), PerfInvalidConfig);
}

TEST(TracepointFormat, AKernelWithoutTheTracepointSaysSo) {
    const auto dir = std::filesystem::temp_directory_path() / "hitmap-no-tracepoints";
    std::filesystem::create_directories(dir / "events");
    try {
        read_tracepoint_format(dir, "lock", "contention_begin");
        FAIL() << "read a missing tracepoint";
    } catch (const PerfUnsupported& e) {
        EXPECT_NE(std::string(e.what()).find("no lock:contention_begin tracepoint"),
                  std::string::npos)
            << e.what();
    }
    std::filesystem::remove_all(dir);
}

// One sample as lock_sample_type() lays it out: pid/tid, time, cpu/res, raw size + payload
// (common fields, lock_addr at 8, flags or ret at 16), padded to 8 bytes.
void put_lock_sample(FakeRing& ring, std::uint16_t type, std::uint32_t tid, std::uint64_t time,
                     std::uint64_t addr, std::uint32_t flags_or_ret) {
    std::vector<std::byte> body(48);
    auto put = [&](std::size_t at, const auto& v) { std::memcpy(body.data() + at, &v, sizeof v); };
    put(0, tid);       // pid
    put(4, tid);       // tid
    put(8, time);      // time
    put(16, 1u);       // cpu
    put(24, 20u);      // raw size
    put(28, type);     // common_type
    put(28 + 8, addr); // lock_addr
    put(28 + 16, flags_or_ret);
    ring.record_bytes(PERF_RECORD_SAMPLE, body.data(), body.size());
}

TEST(LockEvents, DecodesBeginAndEndSamplesAcrossTheRingEnd) {
    const auto begin = format_file("lock_contention_begin.format");
    const auto end = format_file("lock_contention_end.format");
    FakeRing ring(256, 200); // the second sample wraps
    put_lock_sample(ring, 408, 7, 1000, 0xffff888012345678, 0x1);
    put_lock_sample(ring, 407, 7, 1500, 0xffff888012345678, static_cast<std::uint32_t>(-4));
    put_lock_sample(ring, 99, 7, 1600, 0x1, 0); // another tracepoint: skipped
    const auto batch = parse_lock_events(ring.bytes(), ring.tail(), ring.head(), begin, end);
    ASSERT_EQ(batch.events.size(), 2u);
    EXPECT_EQ(batch.events[0].kind, LockEvent::Kind::begin);
    EXPECT_EQ(batch.events[0].tid, 7u);
    EXPECT_EQ(batch.events[0].time_ns, 1000u);
    EXPECT_EQ(batch.events[0].cpu, 1u);
    EXPECT_EQ(batch.events[0].lock_addr, 0xffff888012345678u);
    EXPECT_EQ(batch.events[0].flags, 1u);
    EXPECT_EQ(batch.events[1].kind, LockEvent::Kind::end);
    EXPECT_EQ(batch.events[1].ret, -4);
}

TEST(LockEvents, ASampleShorterThanItsRawSizeIsCorrupt) {
    const auto begin = format_file("lock_contention_begin.format");
    const auto end = format_file("lock_contention_end.format");
    FakeRing ring(256, 0);
    std::vector<std::byte> body(32);
    const std::uint32_t raw_size = 64;
    std::memcpy(body.data() + 24, &raw_size, 4);
    ring.record_bytes(PERF_RECORD_SAMPLE, body.data(), body.size());
    EXPECT_THROW(parse_lock_events(ring.bytes(), ring.tail(), ring.head(), begin, end),
                 PerfCorruptRecord);
}

LockEvent ev(LockEvent::Kind k, std::uint32_t tid, std::uint64_t t, std::uint64_t addr,
             std::uint32_t flags = 1, std::int32_t ret = 0) {
    return LockEvent{k, tid, t, 0, addr, flags, ret};
}

TEST(LockEvents, PairsWaitsPerThreadAndLock) {
    using K = LockEvent::Kind;
    const auto summary = summarize_lock_events({
        ev(K::begin, 1, 100, 0xa), ev(K::begin, 2, 110, 0xa),
        ev(K::end, 1, 400, 0xa),         // thread 1 waited 300
        ev(K::begin, 1, 500, 0xb, 32),   // a mutex that spins ...
        ev(K::begin, 1, 550, 0xb, 32),   // ... then sleeps: the first begin counts
        ev(K::end, 2, 510, 0xa),         // thread 2 waited 400
        ev(K::end, 1, 1550, 0xb, 0, -4), // aborted after 1050
        ev(K::end, 3, 1600, 0xa),        // no begin seen
    });
    ASSERT_EQ(summary.locks.size(), 2u);
    const auto& b = summary.locks[0]; // by total wait
    EXPECT_EQ(b.lock_addr, 0xbu);
    EXPECT_EQ(b.contentions, 1u);
    EXPECT_EQ(b.wait_total_ns, 1050u);
    EXPECT_EQ(b.aborted, 1u);
    EXPECT_EQ(lock_type_name(b.flags), "mutex");
    const auto& a = summary.locks[1];
    EXPECT_EQ(a.contentions, 2u);
    EXPECT_EQ(a.wait_total_ns, 700u);
    EXPECT_EQ(a.wait_min_ns, 300u);
    EXPECT_EQ(a.wait_max_ns, 400u);
    EXPECT_EQ(summary.unpaired, 1u);
}

TEST(LockEvents, TypeNamesArePerfs) {
    EXPECT_EQ(lock_type_name(0), "semaphore");
    EXPECT_EQ(lock_type_name(1), "spinlock");
    EXPECT_EQ(lock_type_name(1 | 2), "rwlock:R");
    EXPECT_EQ(lock_type_name(4), "rwsem:W");
    EXPECT_EQ(lock_type_name(16 | 2), "pcpu-sem:R");
    EXPECT_EQ(lock_type_name(32 | 1), "mutex");
    EXPECT_EQ(lock_type_name(8), "rt-mutex");
}

TEST(KernelSymbols, NamesStaticLocksAndNotHeapOnes) {
    const auto table = KernelSymbols::parse("0000000000000000 A fixed_percpu_data\n"
                                            "ffffffff81000000 T _text\n"
                                            "ffffffff82a01040 d tasklist_lock\n"
                                            "ffffffff82a01000 D jiffies_lock\n"
                                            "ffffffffc0a00000 t ext4_foo\t[ext4]\n");
    EXPECT_EQ(table.describe(0xffffffff82a01040), "tasklist_lock+0x0");
    EXPECT_EQ(table.describe(0xffffffff82a01008), "jiffies_lock+0x8");
    EXPECT_EQ(table.describe(0xffffffffc0a00010), "ext4_foo+0x10");
    EXPECT_EQ(table.describe(0xffff888012345678), std::nullopt) << "direct-map (heap) address";
    EXPECT_EQ(table.describe(0xffffffff82af3100), std::nullopt) << "far past jiffies_lock";
    EXPECT_TRUE(KernelSymbols::parse("0000000000000000 T _text\n").empty())
        << "kptr_restrict prints zeros";
}

} // namespace
} // namespace hitmap::perf
