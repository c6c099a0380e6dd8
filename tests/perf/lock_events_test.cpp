// The kernel lock-wait tracepoints: the format files of this machine's kernel (tests/perf/data,
// copied from tracefs), decoding synthetic samples, pairing begin/end, kallsyms names.
#include "collector/perf/errors.hpp"
#include "collector/perf/kernel_symbols.hpp"
#include "collector/perf/lock_events.hpp"
#include "collector/perf/pmu_capabilities.hpp"
#include "collector/perf/tracepoint_format.hpp"
#include "tests/perf/fake_ring.hpp"
#include "tests/support/read_file.hpp"

#include <cstring>
#include <gtest/gtest.h>

namespace hitmap::perf {
namespace {

TracepointFormat format_file(const char* name) {
    return parse_tracepoint_format(
        testing::read_file(std::filesystem::path(HITMAP_PERF_TEST_DATA) / name), "lock");
}

TEST(TracepointFormat, ReadsTheKernelsLockTracepoints) {
    const auto begin = format_file("lock_contention_begin.format");
    EXPECT_EQ(begin.name(), "contention_begin");
    EXPECT_EQ(begin.id(), 408u);
    ASSERT_TRUE(begin.field("lock_addr"));
    EXPECT_EQ(begin.field("lock_addr")->offset, 8u);
    EXPECT_EQ(begin.field("lock_addr")->size, 8u);
    EXPECT_FALSE(begin.field("lock_addr")->is_signed);
    EXPECT_EQ(begin.field("flags")->offset, 16u);
    EXPECT_EQ(begin.field("common_pid")->size, 4u) << "common fields are found too";
    EXPECT_TRUE(begin.field("common_pid")->is_signed);
    EXPECT_EQ(begin.field("no_such_field"), std::nullopt);
    const auto end = format_file("lock_contention_end.format");
    EXPECT_EQ(end.id(), 407u);
    EXPECT_TRUE(end.field("ret")->is_signed);
    EXPECT_NO_THROW(check_lock_formats(begin, end));
}

TEST(TracepointFormat, ReadSignExtendsSignedFieldsAndRefusesShortPayloads) {
    const auto end = format_file("lock_contention_end.format");
    std::vector<std::byte> raw(20);
    const std::int32_t ret = -4;
    std::memcpy(raw.data() + 16, &ret, 4);
    EXPECT_EQ(end.read(raw, "ret"), -4);
    const std::uint64_t addr = 0xffff888012345678;
    std::memcpy(raw.data() + 8, &addr, 8);
    EXPECT_EQ(static_cast<std::uint64_t>(*end.read(raw, "lock_addr")), addr);
    EXPECT_EQ(end.read(std::span(raw).first(18), "ret"), std::nullopt);
    EXPECT_EQ(end.read(raw, "no_such_field"), std::nullopt);
}

// Copies share one parsed handle: a copy outlives the original, as a tracer's copy does.
TEST(TracepointFormat, ACopyOutlivesTheOriginal) {
    std::optional<TracepointFormat> original = format_file("lock_contention_begin.format");
    const TracepointFormat copy = *original;
    original.reset();
    EXPECT_EQ(copy.name(), "contention_begin");
    EXPECT_EQ(copy.field("flags")->offset, 16u);
}

constexpr const char* kHeader = "name: contention_begin\nID: 408\nformat:\n"
                                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;"
                                "\tsigned:0;\n\n";

TEST(TracepointFormat, WithoutNameOrIdLineItIsRefusedWithLibtraceeventsReason) {
    try {
        parse_tracepoint_format("name: x\nformat:\n", "lock");
        FAIL() << "parsed";
    } catch (const PerfInvalidConfig& e) {
        EXPECT_NE(std::string(e.what()).find("failed to read event id"), std::string::npos)
            << e.what();
    }
    try {
        parse_tracepoint_format("ID: 1\nformat:\n", "lock");
        FAIL() << "parsed";
    } catch (const PerfInvalidConfig& e) {
        EXPECT_NE(std::string(e.what()).find("'name:'"), std::string::npos) << e.what();
    }
}

// libtraceevent keeps a format whose field block ends early (here a line without size:), with
// the fields before it; the missing one is reported by name where it is needed.
TEST(TracepointFormat, AFieldBlockCutShortIsReportedWhereTheFieldIsNeeded) {
    const auto begin = parse_tracepoint_format(
        std::string(kHeader) + "\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
                               "\tfield:unsigned int flags;\toffset:16;\tsigned:0;\n\nprint fmt: "
                               "\"%p\", REC->lock_addr\n",
        "lock");
    EXPECT_EQ(begin.field("lock_addr")->offset, 8u);
    EXPECT_EQ(begin.field("flags"), std::nullopt);
    const auto end = format_file("lock_contention_end.format");
    try {
        check_lock_formats(begin, end);
        FAIL() << "accepted a begin format without flags";
    } catch (const PerfInvalidConfig& e) {
        EXPECT_EQ(std::string(e.what()), "tracepoint lock:contention_begin has no field 'flags' "
                                         "(libtraceevent could not parse all of its format)");
    }
}

// Where libtraceevent is more lenient than the hand-written parser it replaced, which refused
// this line: a non-numeric offset goes through strtoul and reads as 0. The kernel writes these
// files, so the leniency is accepted; this pins it so a change in libtraceevent shows up here.
TEST(TracepointFormat, LibtraceeventReadsANonNumericOffsetAsZero) {
    const auto format = parse_tracepoint_format(
        std::string(kHeader) + "\tfield:int a;\toffset:zero;\tsize:4;\tsigned:1;\n", "lock");
    ASSERT_TRUE(format.field("a"));
    EXPECT_EQ(format.field("a")->offset, 0u);
}

// The hand-written parser libtraceevent replaced cut the declaration at its first '[' and so
// named `__data_loc char[] device` "char" (282 of this 6.18 kernel's 2,323 formats have one).
TEST(TracepointFormat, ADynamicArrayFieldKeepsItsName) {
    const auto format = parse_tracepoint_format(
        std::string(kHeader) + "\tfield:__data_loc char[] device;\toffset:8;\tsize:4;\tsigned:0;\n",
        "dma");
    ASSERT_TRUE(format.field("device"));
    EXPECT_EQ(format.field("device")->offset, 8u);
    EXPECT_EQ(format.field("char"), std::nullopt);
}

// A kernel of the same tracing directory layout, copied: libtracefs reads the format from the
// directory it is given, not only from the one it would find itself.
TEST(TracepointFormat, ReadsTheFormatFromTheGivenTracingDirectory) {
    const auto dir = std::filesystem::temp_directory_path() / "hitmap-copied-tracefs";
    std::filesystem::create_directories(dir / "events/lock/contention_end");
    std::filesystem::copy_file(std::filesystem::path(HITMAP_PERF_TEST_DATA) /
                                   "lock_contention_end.format",
                               dir / "events/lock/contention_end/format",
                               std::filesystem::copy_options::overwrite_existing);
    const auto end = read_tracepoint_format(dir, "lock", "contention_end");
    EXPECT_EQ(end.name(), "contention_end");
    EXPECT_EQ(end.id(), 407u);
    std::filesystem::remove_all(dir);
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

// libtracefs finds the same tracefs as the side-effect-free scan doctor uses. Skipped where
// tracefs is not mounted: ensure_tracefs() would mount it.
TEST(TracepointFormat, EnsureTracefsFindsTheMountedOne) {
    const auto mounted = tracefs_root();
    if (!mounted)
        GTEST_SKIP() << "tracefs is not mounted here";
    const TracefsRoot root = ensure_tracefs();
    ASSERT_TRUE(root.path) << root.reason;
    EXPECT_EQ(std::filesystem::canonical(*root.path), std::filesystem::canonical(*mounted));
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
