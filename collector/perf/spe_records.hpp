#pragma once
// Arm SPE records: the packets of one sampled operation, from its first packet to the end or
// timestamp packet that closes it, gathered as perf's arm_spe_read_record() does
// (tools/perf/util/arm-spe-decoder/arm-spe-decoder.c). Malformed input never throws: what
// decodes is kept, the rest is counted. Pure.
#include "collector/perf/spe_packets.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace hitmap::perf {

enum class SpeOperation : std::uint8_t { other, load, store, branch };

struct SpeRecord {
    SpeOperation op = SpeOperation::other;      // no operation type packet: other
    std::uint64_t events = 0;                   // SpeEvent bits
    std::optional<std::uint64_t> pc;            // top byte filled for EL1/EL2 addresses, as perf
    std::optional<std::uint64_t> data_address;  // virtual; the top-byte tag cleared
    std::optional<std::uint16_t> data_source;   // IMPLEMENTATION DEFINED, see spe_data_source.hpp
    std::optional<std::uint32_t> total_latency; // cycles, issue to complete
    std::optional<std::uint32_t> issue_latency;
    std::optional<std::uint32_t> translation_latency;
    std::optional<std::uint64_t> timestamp; // generic timer ticks, when ts_enable is set

    bool has(SpeEvent event) const;
};

struct SpeDecode {
    std::vector<SpeRecord> records;
    // Bytes that start no packet: each is skipped, as perf does, to find the next packet.
    std::uint64_t bad_bytes = 0;
    // Records lost to a bad byte inside them or cut off by the end of the bytes.
    std::uint64_t dropped_records = 0;
    bool cut_at_end = false; // the bytes end inside a record (counted in dropped_records)
};

// Decodes `bytes`, which start at AUX position `position` (for alignment padding).
SpeDecode decode_spe_records(std::span<const std::byte> bytes, std::uint64_t position = 0);

} // namespace hitmap::perf
