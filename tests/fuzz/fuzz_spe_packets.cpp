// libFuzzer target for the Arm SPE decoder: whatever bytes an AUX chunk holds (a buggy core,
// a PARTIAL chunk, a misplaced offset), decode_spe_packet, decode_spe_records and the
// perf_mem_data_src mapping return without reading outside the bytes, crashing or hitting UB,
// and the decoder's accounting holds.
//
// Input layout:
//   [0]   the chunk's AUX position modulo 256, for alignment padding
//   [1..] the chunk's bytes
#include "collector/perf/spe_data_source.hpp"
#include "collector/perf/spe_packets.hpp"
#include "collector/perf/spe_records.hpp"

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitmap::perf;
    if (size < 1)
        return 0;
    const std::uint64_t position = data[0];
    // An exact-size heap copy, so AddressSanitizer flags any read past the chunk's end.
    const std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(data + 1),
                                       reinterpret_cast<const std::byte*>(data + size));

    // Packet by packet, skipping a byte where none starts: every packet lies within the bytes.
    std::uint64_t packets = 0;
    for (std::size_t at = 0; at < bytes.size();) {
        const auto decoded = decode_spe_packet(std::span(bytes).subspan(at), position + at);
        if (const auto* packet = std::get_if<SpePacket>(&decoded)) {
            if (packet->size == 0 || packet->size > bytes.size() - at)
                __builtin_trap();
            at += packet->size;
            ++packets;
        } else {
            ++at;
        }
    }

    const SpeDecode d = decode_spe_records(bytes, position);
    // A record needs a packet besides its end, so there are never more records than that.
    if (d.records.size() * 2 > packets || d.bad_bytes > bytes.size())
        __builtin_trap();
    for (const SpeRecord& record : d.records)
        for (const auto encoding : {SpeDataSourceEncoding::unknown, SpeDataSourceEncoding::common,
                                    SpeDataSourceEncoding::ampereone}) {
            const auto data_src = spe_data_src(record, encoding);
            const bool memory = record.op == SpeOperation::load || record.op == SpeOperation::store;
            if (data_src.has_value() != memory)
                __builtin_trap();
            (void)spe_memory_sample(record, encoding);
        }
    return 0;
}
