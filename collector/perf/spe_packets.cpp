#include "collector/perf/spe_packets.hpp"

namespace hitmap::perf {

namespace {

// Header byte 0 patterns (arm-spe-pkt-decoder.h SPE_HEADER0_*): some packets are matched
// exactly, the others under a mask that leaves out their size or index bits.
constexpr std::uint8_t pad_header = 0x00;
constexpr std::uint8_t end_header = 0x01;
constexpr std::uint8_t timestamp_header = 0x71;
constexpr std::uint8_t events_mask = 0xcf; // bits 5:4 are the payload size
constexpr std::uint8_t events_header = 0x42;
constexpr std::uint8_t data_source_header = 0x43;
constexpr std::uint8_t class_mask = 0xfc; // bits 1:0 are the index or class
constexpr std::uint8_t context_header = 0x64;
constexpr std::uint8_t op_type_header = 0x48;
constexpr std::uint8_t extended_header = 0x20;
constexpr std::uint8_t index_mask = 0xf8; // bits 2:0 are the (low) index
constexpr std::uint8_t address_header = 0xb0;
constexpr std::uint8_t counter_header = 0x98;
constexpr std::uint8_t alignment_header1 = 0x00;

// Header bits 5:4 give the payload size: 1, 2, 4 or 8 bytes.
std::size_t payload_size(std::uint8_t header) {
    return std::size_t{1} << ((header >> 4) & 0x3);
}

std::uint8_t byte(std::span<const std::byte> bytes, std::size_t i) {
    return static_cast<std::uint8_t>(bytes[i]);
}

// A packet whose payload follows `header_size` header bytes, its size given by the last one.
std::variant<SpePacket, SpePacketError> with_payload(std::span<const std::byte> bytes,
                                                     std::size_t header_size, SpePacketType type,
                                                     std::uint8_t index) {
    const std::size_t n = payload_size(byte(bytes, header_size - 1));
    if (bytes.size() < header_size + n)
        return SpePacketError::truncated;
    std::uint64_t payload = 0;
    for (std::size_t i = 0; i < n; ++i) // little-endian whatever the host
        payload |= std::uint64_t{byte(bytes, header_size + i)} << (8 * i);
    return SpePacket{type, index, payload, header_size + n};
}

} // namespace

std::variant<SpePacket, SpePacketError> decode_spe_packet(std::span<const std::byte> bytes,
                                                          std::uint64_t position) {
    if (bytes.empty())
        return SpePacketError::truncated;
    const std::uint8_t h0 = byte(bytes, 0);
    if (h0 == pad_header)
        return SpePacket{SpePacketType::padding, 0, 0, 1};
    if (h0 == end_header)
        return SpePacket{SpePacketType::end, 0, 0, 1};
    if (h0 == timestamp_header)
        return with_payload(bytes, 1, SpePacketType::timestamp, 0);
    if ((h0 & events_mask) == events_header)
        return with_payload(bytes, 1, SpePacketType::events, 0);
    if ((h0 & events_mask) == data_source_header)
        return with_payload(bytes, 1, SpePacketType::data_source, 0);
    if ((h0 & class_mask) == context_header)
        return with_payload(bytes, 1, SpePacketType::context, h0 & 0x3);
    if ((h0 & class_mask) == op_type_header)
        return with_payload(bytes, 1, SpePacketType::op_type, h0 & 0x3);

    // Address and counter packets have a one-byte form (index 0-7) and a two-byte extended
    // form whose first byte carries two more index bits; the second byte is then the header
    // proper. An extended header with second byte 0 is alignment padding instead.
    std::size_t header_size = 1;
    std::uint8_t header = h0;
    std::uint8_t index = h0 & 0x7;
    if ((h0 & class_mask) == extended_header) {
        if (bytes.size() < 2)
            return SpePacketError::truncated;
        header_size = 2;
        header = byte(bytes, 1);
        if (header == alignment_header1) {
            // perf aligns to the buffer's address; the AUX position is the same modulo any
            // alignment up to a page, since the AUX area is page-aligned.
            const std::uint64_t alignment = std::uint64_t{1} << ((h0 & 0xf) + 1);
            const std::uint64_t size = alignment - position % alignment;
            if (bytes.size() < size)
                return SpePacketError::truncated;
            return SpePacket{SpePacketType::padding, 0, 0, static_cast<std::size_t>(size)};
        }
        index = static_cast<std::uint8_t>((h0 & 0x3) << 3 | (header & 0x7));
    }
    if ((header & index_mask) == address_header)
        return with_payload(bytes, header_size, SpePacketType::address, index);
    if ((header & index_mask) == counter_header)
        return with_payload(bytes, header_size, SpePacketType::counter, index);
    return SpePacketError::bad_header;
}

} // namespace hitmap::perf
