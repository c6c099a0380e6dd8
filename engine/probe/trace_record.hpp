#pragma once
// One probe record: 16 bytes, fixed size, written by the owning thread only.
// It names the object and the field (not only the address) so a trace can be replayed
// under another layout of the same struct type.
#include <cstdint>

namespace hitmap::engine {

enum class AccessKind : std::uint8_t { load = 0, store = 1, rmw = 2, cas = 3 };

constexpr const char* to_string(AccessKind k) {
    switch (k) {
    case AccessKind::load:
        return "load";
    case AccessKind::store:
        return "store";
    case AccessKind::rmw:
        return "rmw";
    case AccessKind::cas:
        return "cas";
    }
    return "?";
}

constexpr bool is_write(AccessKind k) {
    return k != AccessKind::load;
}

struct TraceRecord {
    static constexpr unsigned kTscBits = 48;
    static constexpr std::uint64_t kTscMask = (std::uint64_t{1} << kTscBits) - 1;

    std::uint64_t tsc_cpu;  // TSC relative to the run's start (low 48 bits) | CPU << 48
    std::uint16_t object;   // ObjectId from the run's object registry
    std::uint8_t field;     // field id within the object's StructType
    std::uint8_t kind_size; // AccessKind in bits 0-1, log2(access size) in bits 2-4
    std::uint16_t offset;   // byte offset of the field under the recording layout
    std::uint16_t site;     // SiteId (call site) from the engine's site table

    static constexpr TraceRecord make(std::uint64_t tsc, std::uint16_t cpu, std::uint16_t object,
                                      std::uint8_t field, AccessKind kind, std::uint8_t log2_size,
                                      std::uint16_t offset, std::uint16_t site) {
        return make_stamped((tsc & kTscMask) | (std::uint64_t{cpu} << kTscBits), object, field,
                            kind, log2_size, offset, site);
    }

    // `stamp` is a ready tsc_cpu word: the recorder keeps one and reuses it.
    static constexpr TraceRecord make_stamped(std::uint64_t stamp, std::uint16_t object,
                                              std::uint8_t field, AccessKind kind,
                                              std::uint8_t log2_size, std::uint16_t offset,
                                              std::uint16_t site) {
        return TraceRecord{
            stamp,  object,
            field,  static_cast<std::uint8_t>(static_cast<unsigned>(kind) | (log2_size << 2)),
            offset, site};
    }

    constexpr std::uint64_t tsc() const { return tsc_cpu & kTscMask; }
    constexpr std::uint16_t cpu() const { return static_cast<std::uint16_t>(tsc_cpu >> kTscBits); }
    constexpr AccessKind kind() const { return static_cast<AccessKind>(kind_size & 3u); }
    constexpr unsigned size() const { return 1u << ((kind_size >> 2) & 7u); }
};
static_assert(sizeof(TraceRecord) == 16, "trace records must stay compact");

} // namespace hitmap::engine
