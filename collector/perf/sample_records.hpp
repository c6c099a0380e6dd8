#pragma once
// Parsing of a perf mmap ring buffer: PERF_RECORD_SAMPLE records become typed MemorySamples,
// everything else is skipped and counted. Pure, so it is tested with synthetic buffers.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace hitmap::perf {

// Fields the sample_type did not request stay 0.
struct MemorySample {
    std::uint64_t ip = 0;
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;
    std::uint64_t time = 0;
    std::uint64_t addr = 0; // data address
    std::uint32_t cpu = 0;
    std::uint64_t data_src = 0; // see decode_data_src()
    std::uint64_t weight = 0;   // load latency in cycles (WEIGHT_STRUCT: its var1_dw)
};

// What a walk over the records of one type counted besides them.
struct RecordCounts {
    std::uint64_t lost_samples = 0;  // summed over PERF_RECORD_LOST
    std::uint64_t lost_records = 0;  // PERF_RECORD_LOST records seen
    std::uint64_t other_records = 0; // mmap, comm, throttle, ... skipped
};

struct SampleBatch : RecordCounts {
    std::vector<MemorySample> samples;
};

// Parses the records in ring positions [tail, head) of a ring data area (positions grow without
// bound and wrap modulo ring.size(); a record may straddle the end). sample_type is the attr's:
// fixed-size fields only (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, WEIGHT or
// WEIGHT_STRUCT, DATA_SRC, TRANSACTION, PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE), else
// PerfInvalidConfig. A record that does not fit its header or the window is PerfCorruptRecord.
SampleBatch parse_sample_records(std::span<const std::byte> ring, std::uint64_t tail,
                                 std::uint64_t head, std::uint64_t sample_type);

// The record walk under parse_sample_records, for callers with their own sample layout:
// visit(type, body) for every record in [tail, head); the body excludes the header and is
// contiguous even where the record wrapped. Throws PerfCorruptRecord as above.
using RecordVisitor = std::function<void(std::uint32_t type, std::span<const std::byte> body)>;
void for_each_record(std::span<const std::byte> ring, std::uint64_t tail, std::uint64_t head,
                     const RecordVisitor& visit);

// for_each_record for the records of one type: visit(body) for each, PERF_RECORD_LOST and the
// other records counted into `counts`.
using BodyVisitor = std::function<void(std::span<const std::byte> body)>;
void for_each_record_of(std::uint32_t type, std::span<const std::byte> ring, std::uint64_t tail,
                        std::uint64_t head, RecordCounts& counts, const BodyVisitor& visit);

// The sample count of a PERF_RECORD_LOST body.
std::uint64_t lost_samples_in(std::span<const std::byte> lost_record_body);

// The sample_id trailer that attr.sample_id_all appends to non-sample records (TID, TIME, ID,
// STREAM_ID, CPU, IDENTIFIER, in that order): its pid, tid, time and cpu, the rest 0. Throws
// PerfCorruptRecord when the trailer is shorter than sample_type says.
MemorySample parse_sample_id(std::span<const std::byte> trailer, std::uint64_t sample_type);

// Copies n bytes starting at ring position `pos`, wrapping at the end of the ring (the data
// area of a ring buffer or an AUX area; both are powers of two written the same way).
void copy_from_ring(std::span<const std::byte> ring, std::uint64_t pos, std::size_t n,
                    std::byte* out);

} // namespace hitmap::perf
