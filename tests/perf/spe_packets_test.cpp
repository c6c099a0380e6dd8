#include "collector/perf/spe_packets.hpp"
#include "collector/perf/spe_records.hpp"
#include "tests/perf/fake_spe.hpp"

#include <gtest/gtest.h>

namespace hitmap::perf {
namespace {

SpePacket packet_of(const SpeBytes& bytes, std::uint64_t position = 0) {
    const auto decoded = decode_spe_packet(bytes.bytes(), position);
    EXPECT_TRUE(std::holds_alternative<SpePacket>(decoded));
    return std::get<SpePacket>(decoded);
}

SpePacketError error_of(const SpeBytes& bytes) {
    const auto decoded = decode_spe_packet(bytes.bytes(), 0);
    EXPECT_TRUE(std::holds_alternative<SpePacketError>(decoded));
    return std::get<SpePacketError>(decoded);
}

// A Neoverse load record as perf's dump shows them: PC, op type, events, latencies, VA, data
// source, timestamp.
SpeBytes load_record(std::uint64_t va, std::uint16_t source, std::uint64_t events) {
    SpeBytes b;
    b.pc(0x400abc).load().events(events).issue_latency(3).total_latency(41).data_va(va, 0xa5);
    b.data_source(source).timestamp(0x123456789);
    return b;
}

TEST(DecodeSpePacket, EveryShortHeader) {
    EXPECT_EQ(packet_of(SpeBytes().pad()).type, SpePacketType::padding);
    EXPECT_EQ(packet_of(SpeBytes().end()).type, SpePacketType::end);

    const SpePacket ts = packet_of(SpeBytes().timestamp(0x1122334455667788));
    EXPECT_EQ(ts.type, SpePacketType::timestamp);
    EXPECT_EQ(ts.payload, 0x1122334455667788u);
    EXPECT_EQ(ts.size, 9u);

    const SpePacket events = packet_of(SpeBytes().events(0x00a00006));
    EXPECT_EQ(events.type, SpePacketType::events);
    EXPECT_EQ(events.payload, 0x00a00006u);
    EXPECT_EQ(events.size, 5u);

    const SpePacket source = packet_of(SpeBytes().data_source(0x9));
    EXPECT_EQ(source.type, SpePacketType::data_source);
    EXPECT_EQ(source.payload, 0x9u);
    EXPECT_EQ(source.size, 3u);

    const SpePacket op = packet_of(SpeBytes().store());
    EXPECT_EQ(op.type, SpePacketType::op_type);
    EXPECT_EQ(op.index, static_cast<std::uint8_t>(SpeOpClass::load_store_atomic));
    EXPECT_EQ(op.payload, 1u);

    const SpePacket context = packet_of(SpeBytes().context(4242));
    EXPECT_EQ(context.type, SpePacketType::context);
    EXPECT_EQ(context.index, 1); // CONTEXTIDR_EL2 (perf prints the EL as index + 1)
    EXPECT_EQ(context.payload, 4242u);

    const SpePacket va = packet_of(SpeBytes().data_va(0xffffb7e01040));
    EXPECT_EQ(va.type, SpePacketType::address);
    EXPECT_EQ(va.index, static_cast<std::uint8_t>(SpeAddress::data_virtual));
    EXPECT_EQ(va.size, 9u);

    const SpePacket latency = packet_of(SpeBytes().total_latency(0x0123));
    EXPECT_EQ(latency.type, SpePacketType::counter);
    EXPECT_EQ(latency.index, static_cast<std::uint8_t>(SpeCounter::total_latency));
    EXPECT_EQ(latency.payload, 0x0123u);
    EXPECT_EQ(latency.size, 3u);
}

// The two-byte header: the first byte's low bits extend the index.
TEST(DecodeSpePacket, ExtendedHeaders) {
    const SpePacket va = packet_of(SpeBytes().extended_address(2, 0x1000));
    EXPECT_EQ(va.type, SpePacketType::address);
    EXPECT_EQ(va.index, 2);
    EXPECT_EQ(va.payload, 0x1000u);
    EXPECT_EQ(va.size, 10u);

    const SpePacket high = packet_of(SpeBytes().extended_address(13, 7));
    EXPECT_EQ(high.index, 13);

    const SpePacket counter = packet_of(SpeBytes().put(0x21).put(0x98).put(0x34).put(0x12));
    EXPECT_EQ(counter.type, SpePacketType::counter);
    EXPECT_EQ(counter.index, 8);
    EXPECT_EQ(counter.payload, 0x1234u);
}

// Extended header with second byte 0: padding to 2^(low nibble + 1), from the AUX position.
TEST(DecodeSpePacket, AlignmentPadsToTheNextBoundary) {
    SpeBytes b;
    b.put(0x23).put(0x00); // 16-byte alignment
    for (int i = 0; i < 14; ++i)
        b.pad();
    EXPECT_EQ(packet_of(b, 0).size, 16u);
    EXPECT_EQ(packet_of(b, 4).size, 12u);
    EXPECT_EQ(packet_of(b, 0).type, SpePacketType::padding);
    EXPECT_EQ(error_of(SpeBytes().put(0x23).put(0x00)), SpePacketError::truncated);
}

TEST(DecodeSpePacket, TruncatedAndBadHeaders) {
    EXPECT_EQ(error_of(SpeBytes()), SpePacketError::truncated);
    EXPECT_EQ(error_of(SpeBytes().put(0x71).put(1).put(2)), SpePacketError::truncated);
    EXPECT_EQ(error_of(SpeBytes().put(0xb2)), SpePacketError::truncated);
    EXPECT_EQ(error_of(SpeBytes().put(0x20)), SpePacketError::truncated); // extended, no 2nd byte
    EXPECT_EQ(error_of(SpeBytes().put(0xff)), SpePacketError::bad_header);
    EXPECT_EQ(error_of(SpeBytes().put(0x02)), SpePacketError::bad_header);
    EXPECT_EQ(error_of(SpeBytes().put(0x20).put(0x42)), SpePacketError::bad_header);
}

TEST(DecodeSpeRecords, LoadRecordAllFields) {
    const SpeDecode d = decode_spe_records(
        load_record(0xffffb7e01040, 0x0,
                    spe_event_bit(SpeEvent::retired) | spe_event_bit(SpeEvent::l1d_access))
            .bytes());
    ASSERT_EQ(d.records.size(), 1u);
    EXPECT_EQ(d.bad_bytes, 0u);
    EXPECT_EQ(d.dropped_records, 0u);
    const SpeRecord& r = d.records[0];
    EXPECT_EQ(r.op, SpeOperation::load);
    EXPECT_EQ(r.pc, 0x400abcu);                 // the non-secure bit is not part of it
    EXPECT_EQ(r.data_address, 0xffffb7e01040u); // the tag 0xa5 is cleared
    EXPECT_EQ(r.data_source, 0x0);
    EXPECT_EQ(r.total_latency, 41u);
    EXPECT_EQ(r.issue_latency, 3u);
    EXPECT_FALSE(r.translation_latency);
    EXPECT_EQ(r.timestamp, 0x123456789u);
    EXPECT_TRUE(r.has(SpeEvent::l1d_access));
    EXPECT_FALSE(r.has(SpeEvent::l1d_refill));
}

// Kernel addresses get their top byte back, as perf's arm_spe_calc_ip() gives them.
TEST(DecodeSpeRecords, KernelAddressesAreSignExtended) {
    SpeBytes b;
    // PC at EL1, non-secure; data VA with bits 55:52 set.
    b.put(0xb0);
    const std::uint64_t pc =
        0x00ff800010001234ull | (std::uint64_t{1} << 63) | (std::uint64_t{1} << 61);
    for (int i = 0; i < 8; ++i)
        b.put(static_cast<std::uint8_t>(pc >> (8 * i)));
    b.load().data_va(0x00f0000000001000ull).end();
    const SpeDecode d = decode_spe_records(b.bytes());
    ASSERT_EQ(d.records.size(), 1u);
    EXPECT_EQ(d.records[0].pc, 0xffff800010001234ull);
    EXPECT_EQ(d.records[0].data_address, 0xfff0000000001000ull);
}

TEST(DecodeSpeRecords, StoreBranchAndEndPacketsWithPadding) {
    SpeBytes b;
    b.pad().pad();
    b.pc(0x400100)
        .store()
        .events(spe_event_bit(SpeEvent::l1d_access))
        .data_va(0x7f0000002000)
        .end();
    b.pad();
    b.pc(0x400200).branch().total_latency(2).end();
    b.pad().pad().pad(); // the driver pads the rest of the buffer with zeros
    const SpeDecode d = decode_spe_records(b.bytes());
    ASSERT_EQ(d.records.size(), 2u);
    EXPECT_EQ(d.records[0].op, SpeOperation::store);
    EXPECT_EQ(d.records[0].data_address, 0x7f0000002000u);
    EXPECT_FALSE(d.records[0].timestamp);
    EXPECT_EQ(d.records[1].op, SpeOperation::branch);
    EXPECT_FALSE(d.records[1].data_address);
    EXPECT_EQ(d.dropped_records, 0u);
    EXPECT_FALSE(d.cut_at_end);
}

// A lone end or timestamp packet closes nothing.
TEST(DecodeSpeRecords, EmptyRecordsAreNotRecords) {
    const SpeDecode d = decode_spe_records(SpeBytes().end().timestamp(5).end().bytes());
    EXPECT_TRUE(d.records.empty());
    EXPECT_EQ(d.dropped_records, 0u);
}

// The chunk ends inside the second record's timestamp: the first record stands.
TEST(DecodeSpeRecords, TruncatedRecordIsDroppedAndCounted) {
    SpeBytes b = load_record(0x1000, 0x0, spe_event_bit(SpeEvent::l1d_access));
    const SpeBytes second = load_record(0x2000, 0x8, spe_event_bit(SpeEvent::l1d_access));
    for (std::size_t i = 0; i + 3 < second.size(); ++i)
        b.put(static_cast<std::uint8_t>(second.bytes()[i]));
    const SpeDecode d = decode_spe_records(b.bytes());
    ASSERT_EQ(d.records.size(), 1u);
    EXPECT_EQ(d.records[0].data_address, 0x1000u);
    EXPECT_EQ(d.dropped_records, 1u);
    EXPECT_TRUE(d.cut_at_end);
}

TEST(DecodeSpeRecords, RecordWithoutItsEndIsDropped) {
    const SpeDecode d = decode_spe_records(SpeBytes().pc(0x400000).load().bytes());
    EXPECT_TRUE(d.records.empty());
    EXPECT_EQ(d.dropped_records, 1u);
    EXPECT_TRUE(d.cut_at_end);
}

// Garbage between records is skipped a byte at a time; the records around it decode.
TEST(DecodeSpeRecords, GarbageBetweenRecordsIsSkipped) {
    SpeBytes b;
    b.put(0xff).put(0x02).put(0xfe);
    b.append(load_record(0x1000, 0x0, spe_event_bit(SpeEvent::l1d_access)));
    b.put(0x03).put(0xff);
    b.append(load_record(0x2000, 0xe, spe_event_bit(SpeEvent::llc_miss)));
    const SpeDecode d = decode_spe_records(b.bytes());
    ASSERT_EQ(d.records.size(), 2u);
    EXPECT_EQ(d.records[0].data_address, 0x1000u);
    EXPECT_EQ(d.records[1].data_address, 0x2000u);
    EXPECT_EQ(d.bad_bytes, 5u);
    EXPECT_EQ(d.dropped_records, 0u);
}

// A bad byte inside a record loses that record (perf restarts there as well).
TEST(DecodeSpeRecords, GarbageInsideARecordDropsIt) {
    SpeBytes b;
    b.pc(0x400000).load().put(0xff).put(0xff);
    b.append(load_record(0x3000, 0x0, spe_event_bit(SpeEvent::l1d_access)));
    const SpeDecode d = decode_spe_records(b.bytes());
    ASSERT_EQ(d.records.size(), 1u);
    EXPECT_EQ(d.records[0].data_address, 0x3000u);
    EXPECT_EQ(d.bad_bytes, 2u);
    EXPECT_EQ(d.dropped_records, 1u);
}

} // namespace
} // namespace hitmap::perf
