#pragma once
// Arm SPE packets written byte by byte as the hardware lays them out (Arm ARM DDI 0487,
// "Statistical Profiling Extension" packet formats), for the decoder's tests.
#include "collector/perf/spe_packets.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hitmap::perf {

// An events packet payload bit.
inline std::uint64_t spe_event_bit(SpeEvent event) {
    return std::uint64_t{1} << static_cast<unsigned>(event);
}

class SpeBytes {
public:
    SpeBytes& pad() { return put(0x00); }
    SpeBytes& end() { return put(0x01); }
    SpeBytes& timestamp(std::uint64_t ticks) { return put(0x71).le(ticks, 8); }
    // 4-byte events payload (header bits 5:4 = 2), enough for events 0-31.
    SpeBytes& events(std::uint64_t bits) { return put(0x62).le(bits, 4); }
    SpeBytes& data_source(std::uint16_t code) { return put(0x53).le(code, 2); }
    // Operation type class 1 (load/store/atomic); payload bit 0 = store.
    SpeBytes& load() { return put(0x49).put(0x00); }
    SpeBytes& store() { return put(0x49).put(0x01); }
    SpeBytes& branch() { return put(0x4a).put(0x00); }
    // PC of user code: non-secure (bit 63), EL0 (bits 62:61 = 0).
    SpeBytes& pc(std::uint64_t address) {
        return put(0xb0).le(address | std::uint64_t{1} << 63, 8);
    }
    SpeBytes& data_va(std::uint64_t address, std::uint8_t tag = 0) {
        return put(0xb2).le(address | std::uint64_t{tag} << 56, 8);
    }
    // The two-byte form of an address packet, any index up to 31.
    SpeBytes& extended_address(std::uint8_t index, std::uint64_t payload) {
        return put(0x20 | (index >> 3)).put(0xb0 | (index & 0x7)).le(payload, 8);
    }
    SpeBytes& total_latency(std::uint16_t cycles) { return put(0x98).le(cycles, 2); }
    SpeBytes& issue_latency(std::uint16_t cycles) { return put(0x99).le(cycles, 2); }
    SpeBytes& context(std::uint32_t id) { return put(0x65).le(id, 4); }

    SpeBytes& put(std::uint8_t b) {
        bytes_.push_back(static_cast<std::byte>(b));
        return *this;
    }
    SpeBytes& append(const SpeBytes& other) {
        bytes_.insert(bytes_.end(), other.bytes_.begin(), other.bytes_.end());
        return *this;
    }

    const std::vector<std::byte>& bytes() const { return bytes_; }
    std::size_t size() const { return bytes_.size(); }

private:
    SpeBytes& le(std::uint64_t value, unsigned n) {
        for (unsigned i = 0; i < n; ++i)
            put(static_cast<std::uint8_t>(value >> (8 * i)));
        return *this;
    }

    std::vector<std::byte> bytes_;
};

} // namespace hitmap::perf
