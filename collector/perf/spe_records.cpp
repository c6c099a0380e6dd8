#include "collector/perf/spe_records.hpp"

namespace hitmap::perf {

namespace {

constexpr std::uint64_t low56 = (std::uint64_t{1} << 56) - 1;
constexpr std::uint64_t top_byte = std::uint64_t{0xff} << 56;

// PC and branch target payloads: address in bits 55:0, exception level in 62:61, non-secure
// in 63. Kernel (EL1, or EL2 under VHE) addresses get their top byte back, as perf's
// arm_spe_calc_ip() does, so they compare with symbol addresses.
std::uint64_t instruction_address(std::uint64_t payload) {
    const bool non_secure = (payload >> 63) != 0;
    const unsigned el = (payload >> 61) & 0x3;
    const std::uint64_t address = payload & low56;
    return non_secure && (el == 1 || el == 2) ? address | top_byte : address;
}

// Data VA payloads carry the top-byte tag in bits 63:56; bits 55:52 all set mean a kernel
// address, whose top byte is all ones (arm_spe_calc_ip() again).
std::uint64_t data_address(std::uint64_t payload) {
    const std::uint64_t address = payload & low56;
    return ((address >> 52) & 0xf) == 0xf ? address | top_byte : address;
}

void apply_address(SpeRecord& r, const SpePacket& p) {
    switch (static_cast<SpeAddress>(p.index)) {
    case SpeAddress::pc:
        r.pc = instruction_address(p.payload);
        break;
    case SpeAddress::data_virtual:
        r.data_address = data_address(p.payload);
        break;
    case SpeAddress::data_physical:          // pa_enable is off: needs CAP_PERFMON
    case SpeAddress::branch_target:          // branch records are of no use to a memory
    case SpeAddress::previous_branch_target: // analysis
        break;
    }
}

void apply_counter(SpeRecord& r, const SpePacket& p) {
    // Counters are 12 or 16 bits wide (PMSIDR_EL1.CountSize) in a 16-bit payload.
    const auto cycles = static_cast<std::uint32_t>(p.payload & 0xffff);
    switch (static_cast<SpeCounter>(p.index)) {
    case SpeCounter::total_latency:
        r.total_latency = cycles;
        break;
    case SpeCounter::issue_latency:
        r.issue_latency = cycles;
        break;
    case SpeCounter::translation_latency:
        r.translation_latency = cycles;
        break;
    }
}

void apply_op_type(SpeRecord& r, const SpePacket& p) {
    switch (static_cast<SpeOpClass>(p.index)) {
    case SpeOpClass::load_store_atomic:
        // Payload bit 0 (SPE_OP_PKT_ST): a store; an atomic counts as a load unless it sets it.
        r.op = (p.payload & 0x1) ? SpeOperation::store : SpeOperation::load;
        break;
    case SpeOpClass::branch:
        r.op = SpeOperation::branch;
        break;
    case SpeOpClass::other:
        r.op = SpeOperation::other;
        break;
    }
}

// Folds one packet into the record being built; true when the packet closes it.
bool apply(SpeRecord& r, const SpePacket& p) {
    switch (p.type) {
    case SpePacketType::padding:
        return false;
    case SpePacketType::end:
        return true;
    case SpePacketType::timestamp:
        r.timestamp = p.payload;
        return true;
    case SpePacketType::events:
        r.events = p.payload;
        return false;
    case SpePacketType::data_source:
        r.data_source = static_cast<std::uint16_t>(p.payload);
        return false;
    case SpePacketType::context: // the pid where the kernel writes CONTEXTIDR; the
        return false;            // sampler follows one thread anyway
    case SpePacketType::op_type:
        apply_op_type(r, p);
        return false;
    case SpePacketType::address:
        apply_address(r, p);
        return false;
    case SpePacketType::counter:
        apply_counter(r, p);
        return false;
    }
    return false;
}

} // namespace

bool SpeRecord::has(SpeEvent event) const {
    return (events >> static_cast<unsigned>(event)) & 1;
}

SpeDecode decode_spe_records(std::span<const std::byte> bytes, std::uint64_t position) {
    SpeDecode out;
    SpeRecord record;
    bool open = false; // a packet other than padding was seen since the last record closed
    auto drop = [&] {
        if (open)
            ++out.dropped_records;
        record = SpeRecord{};
        open = false;
    };
    std::size_t at = 0;
    while (at < bytes.size()) {
        const auto decoded = decode_spe_packet(bytes.subspan(at), position + at);
        if (const auto* error = std::get_if<SpePacketError>(&decoded)) {
            if (*error == SpePacketError::truncated) {
                // Everything left belongs to the cut packet: nothing further to decode.
                out.cut_at_end = true;
                open = true;
                drop();
                return out;
            }
            // Like perf, skip one byte and look for a packet there; the record it was part of
            // cannot be trusted.
            ++out.bad_bytes;
            drop();
            ++at;
            continue;
        }
        const SpePacket& packet = std::get<SpePacket>(decoded);
        at += packet.size;
        if (packet.type == SpePacketType::padding)
            continue;
        if (!apply(record, packet)) {
            open = true;
            continue;
        }
        if (open) // a lone end or timestamp packet closes nothing
            out.records.push_back(record);
        record = SpeRecord{};
        open = false;
    }
    out.cut_at_end = open; // a record the bytes end inside
    drop();
    return out;
}

} // namespace hitmap::perf
