#pragma once
// The AUX area side of a perf ring buffer: PERF_RECORD_AUX records in the ring announce chunks
// of the AUX area (where SPE or Intel PT write their own format) as the kernel finishes them;
// each chunk is copied out, wrapping at the end of the area. Pure, like sample_records.hpp, so
// it is tested with synthetic rings and AUX areas.
#include "collector/perf/sample_records.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hitmap::perf {

// One PERF_RECORD_AUX (include/uapi/linux/perf_event.h): u64 aux_offset, aux_size, flags, then
// the sample_id trailer.
struct AuxRecord {
    std::uint64_t offset = 0; // AUX position: grows without bound, wraps modulo the area size
    std::uint64_t size = 0;
    std::uint64_t flags = 0; // PERF_AUX_FLAG_*
    MemorySample context;    // pid, tid, time, cpu of the sample_id trailer
};

struct AuxChunk {
    AuxRecord record;
    std::vector<std::byte> bytes; // the chunk, contiguous
};

// The counts are the ring's, as SampleBatch's (other records: ITRACE_START, comm, ...).
struct AuxBatch : RecordCounts {
    std::vector<AuxChunk> chunks;
    // Where the chunks end: the AUX position up to which the area can be handed back. The
    // position given to parse_aux_ring when there are no chunks.
    std::uint64_t end = 0;
};

// Whether the kernel lost AUX data: the area filled (TRUNCATED; SPE also stops sampling until
// re-enabled), the hardware lost the end of a record (PARTIAL), or an operation was chosen
// while the previous sample was still in flight (COLLISION).
bool aux_lost_data(const AuxRecord& record);

// Parses the records in ring positions [tail, head) as parse_sample_records does, and copies
// every announced chunk out of `aux`. `aux_tail` is the AUX position consumed so far.
// sample_type is the attr's, for the sample_id trailer (attr.sample_id_all). Throws
// PerfCorruptRecord for a record that does not fit or a chunk larger than the area.
AuxBatch parse_aux_ring(std::span<const std::byte> ring, std::uint64_t tail, std::uint64_t head,
                        std::span<const std::byte> aux, std::uint64_t aux_tail,
                        std::uint64_t sample_type);

} // namespace hitmap::perf
