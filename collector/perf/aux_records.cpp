#include "collector/perf/aux_records.hpp"

#include "collector/perf/errors.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <linux/perf_event.h>

namespace hitmap::perf {

namespace {

constexpr std::size_t aux_fields = 3 * sizeof(std::uint64_t); // offset, size, flags

AuxRecord parse_aux_record(std::span<const std::byte> body, std::uint64_t sample_type) {
    if (body.size() < aux_fields)
        throw PerfCorruptRecord(fmt::format("PERF_RECORD_AUX of {} bytes is shorter than its "
                                            "fields",
                                            body.size() + sizeof(perf_event_header)));
    AuxRecord r;
    std::memcpy(&r.offset, body.data(), sizeof(r.offset));
    std::memcpy(&r.size, body.data() + 8, sizeof(r.size));
    std::memcpy(&r.flags, body.data() + 16, sizeof(r.flags));
    r.context = parse_sample_id(body.subspan(aux_fields), sample_type);
    return r;
}

} // namespace

bool aux_lost_data(const AuxRecord& record) {
    return (record.flags &
            (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL | PERF_AUX_FLAG_COLLISION)) != 0;
}

AuxBatch parse_aux_ring(std::span<const std::byte> ring, std::uint64_t tail, std::uint64_t head,
                        std::span<const std::byte> aux, std::uint64_t aux_tail,
                        std::uint64_t sample_type) {
    AuxBatch batch;
    batch.end = aux_tail;
    for_each_record_of(
        PERF_RECORD_AUX, ring, tail, head, batch, [&](std::span<const std::byte> body) {
            AuxChunk chunk{parse_aux_record(body, sample_type), {}};
            if (chunk.record.size > aux.size())
                throw PerfCorruptRecord(fmt::format(
                    "PERF_RECORD_AUX announces {} bytes at AUX position {}; the area has {}",
                    chunk.record.size, chunk.record.offset, aux.size()));
            chunk.bytes.resize(chunk.record.size);
            copy_from_ring(aux, chunk.record.offset, chunk.bytes.size(), chunk.bytes.data());
            batch.end = std::max(batch.end, chunk.record.offset + chunk.record.size);
            batch.chunks.push_back(std::move(chunk));
        });
    return batch;
}

} // namespace hitmap::perf
