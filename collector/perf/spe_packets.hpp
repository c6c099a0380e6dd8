#pragma once
// Arm Statistical Profiling Extension packets, one at a time: the byte stream SPE writes into a
// perf AUX area, decoded the way perf does (tools/perf/util/arm-spe-decoder/
// arm-spe-pkt-decoder.{c,h}, read at torvalds/linux 03c60192 and 50501936; the packet formats
// are the Arm ARM's, DDI 0487 "Statistical Profiling Extension"). Pure: tested with hand-built
// bytes and fuzzed (tests/fuzz/fuzz_spe_packets.cpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>

namespace hitmap::perf {

enum class SpePacketType : std::uint8_t {
    padding,     // 0x00, and the extended-header alignment packet
    end,         // 0x01: ends a record when timestamps are off
    timestamp,   // 0x71: ends a record when timestamps are on
    events,      // which events the sampled operation caused (SpeEvent bits)
    data_source, // where a load's data came from (IMPLEMENTATION DEFINED codes)
    context,     // CONTEXTIDR_ELx
    op_type,     // class (SpeOpClass) and subclass of the operation
    address,     // PC, branch target, data VA or PA (SpeAddress)
    counter,     // latencies in cycles (SpeCounter)
};

// Address packet indices.
enum class SpeAddress : std::uint8_t {
    pc = 0,
    branch_target = 1,
    data_virtual = 2,
    data_physical = 3,
    previous_branch_target = 4,
};

// Counter packet indices.
enum class SpeCounter : std::uint8_t {
    total_latency = 0,       // issue to complete
    issue_latency = 1,       // dispatch to issue
    translation_latency = 2, // the data address's translation
};

// Operation type packet classes (the header's low two bits).
enum class SpeOpClass : std::uint8_t { other = 0, load_store_atomic = 1, branch = 2 };

// Bit numbers of the events packet payload (arm-spe-pkt-decoder.h enum arm_spe_events; 19-23
// come from later SPE revisions and are read by newer perf only).
enum class SpeEvent : unsigned {
    exception_generated = 0,
    retired = 1,
    l1d_access = 2,
    l1d_refill = 3,
    tlb_access = 4,
    tlb_walk = 5,
    not_taken = 6,
    mispredicted = 7,
    llc_access = 8,
    llc_miss = 9,
    remote_access = 10,
    alignment = 11,
    l2d_access = 19,
    l2d_miss = 20,
    cache_data_modified = 21, // the line was modified in the cache that supplied it: HITM
    recently_fetched = 22,    // hit a line still being filled: perf's LFB
    data_snooped = 23,
};

struct SpePacket {
    SpePacketType type = SpePacketType::padding;
    std::uint8_t index = 0;    // address/counter index, context EL, op-type class; else 0
    std::uint64_t payload = 0; // little-endian, 1 to 8 bytes
    std::size_t size = 0;      // header(s) and payload
};

enum class SpePacketError : std::uint8_t {
    truncated,  // the packet runs past the end of the bytes
    bad_header, // no packet starts with this byte
};

// The packet at the start of `bytes`. `position` is where it lies in the AUX area: alignment
// padding runs to the next multiple of its alignment counted from there.
std::variant<SpePacket, SpePacketError> decode_spe_packet(std::span<const std::byte> bytes,
                                                          std::uint64_t position);

} // namespace hitmap::perf
