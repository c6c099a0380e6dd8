// libFuzzer target for the perf ring-buffer record parser: whatever the kernel (or a torn read)
// leaves in the ring, parse_sample_records and for_each_record either return or throw a
// PerfError; they never read outside the ring, crash or hit UB.
//
// Input layout, so the fuzzer steers the window and the sample layout as well as the bytes:
//   [0]      ring size: 2^(3 + byte % 14) bytes (8 B .. 64 KiB; mmap rings are powers of two)
//   [1..8]   tail, any u64: positions grow without bound and wrap modulo the ring size
//   [9..10]  head - tail; may exceed the ring (a window that cannot fit must be refused)
//   [11..14] sample_type bits 0..31 (every PERF_SAMPLE_* of linux/perf_event.h up to
//            WEIGHT_STRUCT)
//   [15]     bit 0 set: clear the variable-size bits, so most inputs reach the field walk
//            instead of stopping at the PerfInvalidConfig check
//   [16..]   the ring's bytes, repeated to fill it
#include "collector/perf/errors.hpp"
#include "collector/perf/sample_records.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <linux/perf_event.h>
#include <span>
#include <vector>

namespace {

template <typename T> T take(const std::uint8_t* data) {
    T value{};
    std::memcpy(&value, data, sizeof(value));
    return value;
}

// The sample fields whose size depends on the record (read_format groups, callchains, raw
// data, branch stacks, registers, user stacks, aux): the parser refuses them by design.
constexpr std::uint64_t variable_size_fields =
    PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX;

constexpr std::size_t header_bytes = 16;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < header_bytes)
        return 0;
    const std::size_t ring_size = std::size_t{1} << (3 + data[0] % 14);
    const auto tail = take<std::uint64_t>(data + 1);
    const std::uint64_t head = tail + take<std::uint16_t>(data + 9); // may wrap: head < tail
    std::uint64_t sample_type = take<std::uint32_t>(data + 11);
    if (data[15] & 1)
        sample_type &= ~variable_size_fields;

    // An exact-size heap buffer, so AddressSanitizer flags any read past the ring's end.
    std::vector<std::byte> ring(ring_size);
    const std::size_t payload = size - header_bytes;
    for (std::size_t i = 0; payload > 0 && i < ring_size; ++i)
        ring[i] = static_cast<std::byte>(data[header_bytes + i % payload]);

    try {
        const auto batch = hitmap::perf::parse_sample_records(ring, tail, head, sample_type);
        (void)batch;
    } catch (const hitmap::perf::PerfError&) {
    }
    try {
        std::uint64_t bytes = 0;
        hitmap::perf::for_each_record(ring, tail, head,
                                      [&](std::uint32_t, std::span<const std::byte> body) {
                                          bytes += body.size() + sizeof(perf_event_header);
                                      });
        if (bytes != head - tail) // the walk covers the window exactly or throws
            __builtin_trap();
    } catch (const hitmap::perf::PerfError&) {
    }
    return 0;
}
