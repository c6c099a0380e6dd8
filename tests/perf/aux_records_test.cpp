#include "collector/perf/aux_records.hpp"
#include "collector/perf/data_source.hpp"
#include "collector/perf/errors.hpp"
#include "collector/perf/spe_samples.hpp"
#include "tests/perf/fake_ring.hpp"
#include "tests/perf/fake_spe.hpp"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

namespace hitmap::perf {
namespace {

constexpr std::uint64_t aux_sample_id_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;

std::uint64_t pid_tid(std::uint32_t pid, std::uint32_t tid) {
    return static_cast<std::uint64_t>(tid) << 32 | pid;
}

// An AUX area the way the kernel fills it: positions grow, bytes wrap; each chunk is announced
// by a PERF_RECORD_AUX in the ring.
class FakeAux {
public:
    FakeAux(std::size_t size, std::uint64_t start)
        : bytes_(size)
        , head_(start) {}

    // Writes `chunk` and announces it, with the sample_id of thread 200 of process 100.
    void chunk(FakeRing& ring, const std::vector<std::byte>& chunk, std::uint64_t flags,
               std::uint32_t cpu, std::uint64_t time) {
        const std::uint64_t offset = head_;
        for (std::size_t i = 0; i < chunk.size(); ++i)
            bytes_[(head_ + i) % bytes_.size()] = chunk[i];
        head_ += chunk.size();
        ring.record(PERF_RECORD_AUX, {offset, chunk.size(), flags, pid_tid(100, 200), time, cpu});
    }

    std::span<const std::byte> bytes() const { return bytes_; }

private:
    std::vector<std::byte> bytes_;
    std::uint64_t head_;
};

std::vector<std::byte> filled(std::size_t n, std::uint8_t first) {
    std::vector<std::byte> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = static_cast<std::byte>(first + i);
    return v;
}

// The second chunk starts 8 bytes before the end of a 64-byte area, two laps in.
TEST(ParseAuxRing, ChunksAreCopiedOutAcrossTheWrap) {
    FakeRing ring(512, 0);
    FakeAux aux(64, 2 * 64 + 40);
    aux.chunk(ring, filled(16, 0x10), 0, 3, 1000);
    ring.record(PERF_RECORD_LOST, {/*id*/ 1, /*lost*/ 4});
    aux.chunk(ring, filled(24, 0x40), 0, 5, 2000);
    ring.record(PERF_RECORD_ITRACE_START, {pid_tid(100, 200), pid_tid(100, 200), 2000, 5});

    const AuxBatch batch = parse_aux_ring(ring.bytes(), ring.tail(), ring.head(), aux.bytes(), 168,
                                          aux_sample_id_type);
    ASSERT_EQ(batch.chunks.size(), 2u);
    EXPECT_EQ(batch.chunks[0].record.offset, 168u);
    EXPECT_EQ(batch.chunks[0].bytes, filled(16, 0x10));
    EXPECT_EQ(batch.chunks[1].record.offset, 184u);
    EXPECT_EQ(batch.chunks[1].bytes, filled(24, 0x40)); // wrapped at 192
    EXPECT_EQ(batch.chunks[1].record.context.pid, 100u);
    EXPECT_EQ(batch.chunks[1].record.context.tid, 200u);
    EXPECT_EQ(batch.chunks[1].record.context.cpu, 5u);
    EXPECT_EQ(batch.chunks[1].record.context.time, 2000u);
    EXPECT_EQ(batch.end, 208u);
    EXPECT_EQ(batch.lost_samples, 4u);
    EXPECT_EQ(batch.lost_records, 1u);
    EXPECT_EQ(batch.other_records, 1u);
}

TEST(ParseAuxRing, NoChunksLeavesTheTail) {
    FakeRing ring(128, 0);
    const std::vector<std::byte> aux(64);
    const AuxBatch batch =
        parse_aux_ring(ring.bytes(), ring.tail(), ring.head(), aux, 4096, aux_sample_id_type);
    EXPECT_TRUE(batch.chunks.empty());
    EXPECT_EQ(batch.end, 4096u);
}

// A full area: the kernel announces what fitted (maybe nothing) with TRUNCATED.
TEST(ParseAuxRing, LossFlags) {
    FakeRing ring(512, 0);
    FakeAux aux(64, 0);
    aux.chunk(ring, {}, PERF_AUX_FLAG_TRUNCATED, 0, 10);
    aux.chunk(ring, filled(8, 0), PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL, 0, 20);
    aux.chunk(ring, filled(8, 0), PERF_AUX_FLAG_COLLISION, 0, 30);
    aux.chunk(ring, filled(8, 0), PERF_AUX_FLAG_OVERWRITE, 0, 40);
    const AuxBatch batch =
        parse_aux_ring(ring.bytes(), ring.tail(), ring.head(), aux.bytes(), 0, aux_sample_id_type);
    ASSERT_EQ(batch.chunks.size(), 4u);
    EXPECT_TRUE(batch.chunks[0].bytes.empty());
    EXPECT_TRUE(aux_lost_data(batch.chunks[0].record));
    EXPECT_TRUE(aux_lost_data(batch.chunks[1].record));
    EXPECT_TRUE(aux_lost_data(batch.chunks[2].record));
    EXPECT_FALSE(aux_lost_data(batch.chunks[3].record));
}

TEST(ParseAuxRing, CorruptRecordsThrow) {
    const std::vector<std::byte> aux(64);
    FakeRing too_big(256, 0);
    too_big.record(PERF_RECORD_AUX, {0, 65, 0, pid_tid(1, 1), 0, 0});
    EXPECT_THROW(
        parse_aux_ring(too_big.bytes(), too_big.tail(), too_big.head(), aux, 0, aux_sample_id_type),
        PerfCorruptRecord);

    FakeRing short_body(256, 0);
    short_body.record(PERF_RECORD_AUX, {0, 8});
    EXPECT_THROW(parse_aux_ring(short_body.bytes(), short_body.tail(), short_body.head(), aux, 0,
                                aux_sample_id_type),
                 PerfCorruptRecord);

    FakeRing no_trailer(256, 0);
    no_trailer.record(PERF_RECORD_AUX, {0, 8, 0});
    EXPECT_THROW(parse_aux_ring(no_trailer.bytes(), no_trailer.tail(), no_trailer.head(), aux, 0,
                                aux_sample_id_type),
                 PerfCorruptRecord);
}

SpeBytes spe_load(std::uint64_t va, std::uint16_t source) {
    SpeBytes b;
    b.pc(0x400000 + va % 0x100)
        .load()
        .events(spe_event_bit(SpeEvent::l1d_access))
        .total_latency(30)
        .data_va(va);
    b.data_source(source).timestamp(va);
    return b;
}

SpeBytes spe_store(std::uint64_t va) {
    SpeBytes b;
    b.pc(0x400100)
        .store()
        .events(spe_event_bit(SpeEvent::l1d_access))
        .total_latency(5)
        .data_va(va)
        .timestamp(va);
    return b;
}

// Three Neoverse records in one chunk that wraps the end of the area, then a branch.
TEST(SpeSampleBatch, RecordsBecomeSamplesWithTheChunksThreadCpuAndTime) {
    SpeBytes b;
    b.append(spe_load(0x7f0000001000, 0x0))     // L1 hit
        .append(spe_store(0x7f0000001008))      // store
        .append(spe_load(0x7f0000001040, 0x9)); // peer core
    b.pc(0x400300).branch().total_latency(1).end();
    FakeRing ring(512, 0);
    FakeAux aux(256, 200);
    aux.chunk(ring, b.bytes(), 0, 3, 5000);

    const SampleBatch batch =
        spe_sample_batch(parse_aux_ring(ring.bytes(), ring.tail(), ring.head(), aux.bytes(), 200,
                                        aux_sample_id_type),
                         SpeDataSourceEncoding::common);
    ASSERT_EQ(batch.samples.size(), 3u);
    for (const MemorySample& s : batch.samples) {
        EXPECT_EQ(s.pid, 100u);
        EXPECT_EQ(s.tid, 200u);
        EXPECT_EQ(s.cpu, 3u);
        EXPECT_EQ(s.time, 5000u);
    }
    EXPECT_EQ(batch.samples[0].addr, 0x7f0000001000u);
    EXPECT_EQ(batch.samples[0].weight, 30u);
    EXPECT_TRUE(decode_data_src(batch.samples[0].data_src).is_l1_hit());
    EXPECT_TRUE(decode_data_src(batch.samples[1].data_src).is_store());
    EXPECT_EQ(batch.samples[1].ip, 0x400100u);
    EXPECT_TRUE(decode_data_src(batch.samples[2].data_src).is_local_peer());
    EXPECT_EQ(batch.other_records, 1u); // the branch
    EXPECT_EQ(batch.lost_samples, 0u);
    EXPECT_EQ(batch.lost_records, 0u);
}

// PARTIAL: the last record is corrupt and goes; COLLISION: one sample was not taken;
// TRUNCATED: an unknown number of operations went unsampled, one lost record.
TEST(SpeSampleBatch, LossFlagsAreCountedAsLost) {
    FakeRing ring(1024, 0);
    FakeAux aux(512, 0);
    SpeBytes two;
    two.append(spe_load(0x1000, 0x0)).append(spe_load(0x2000, 0x0));
    aux.chunk(ring, two.bytes(), PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL, 0, 1);
    SpeBytes cut = spe_load(0x3000, 0x0);
    std::vector<std::byte> cut_bytes = cut.bytes();
    cut_bytes.resize(cut_bytes.size() - 4); // the hardware lost the record's end
    aux.chunk(ring, cut_bytes, PERF_AUX_FLAG_PARTIAL, 0, 2);
    aux.chunk(ring, spe_load(0x4000, 0xe).bytes(), PERF_AUX_FLAG_COLLISION, 1, 3);

    const SampleBatch batch = spe_sample_batch(
        parse_aux_ring(ring.bytes(), ring.tail(), ring.head(), aux.bytes(), 0, aux_sample_id_type),
        SpeDataSourceEncoding::common);
    ASSERT_EQ(batch.samples.size(), 2u);
    EXPECT_EQ(batch.samples[0].addr, 0x1000u); // 0x2000 was the corrupt last record
    EXPECT_EQ(batch.samples[1].addr, 0x4000u);
    EXPECT_TRUE(decode_data_src(batch.samples[1].data_src).is_local_dram());
    EXPECT_EQ(batch.lost_samples, 3u); // 0x2000, the cut 0x3000, one collision
    EXPECT_EQ(batch.lost_records, 3u); // three flagged chunks
}

} // namespace
} // namespace hitmap::perf
