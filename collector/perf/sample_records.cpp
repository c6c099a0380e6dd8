#include "collector/perf/sample_records.hpp"

#include "collector/perf/errors.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <tuple>

namespace hitmap::perf {

namespace {

constexpr std::uint64_t supported_sample_type =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
    PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |
    PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;

// Reads the u64 words of one record body in order.
class BodyReader {
public:
    explicit BodyReader(std::span<const std::byte> body)
        : body_(body) {}

    std::uint64_t next() {
        if (offset_ + sizeof(std::uint64_t) > body_.size())
            throw PerfCorruptRecord(fmt::format("record of {} bytes is shorter than its fields",
                                                body_.size() + sizeof(perf_event_header)));
        std::uint64_t word = 0;
        std::memcpy(&word, body_.data() + offset_, sizeof(word));
        offset_ += sizeof(word);
        return word;
    }

    // Skips a field when the sample_type has it.
    void skip_if(std::uint64_t sample_type, std::uint64_t bit) {
        if (sample_type & bit)
            next();
    }

private:
    std::span<const std::byte> body_;
    std::size_t offset_ = 0;
};

std::pair<std::uint32_t, std::uint32_t> split_u32(std::uint64_t word) {
    std::uint32_t halves[2];
    std::memcpy(halves, &word, sizeof(halves));
    return {halves[0], halves[1]};
}

// Field order as written by the kernel's perf_output_sample().
MemorySample parse_sample(std::span<const std::byte> body, std::uint64_t sample_type) {
    BodyReader in(body);
    MemorySample s;
    in.skip_if(sample_type, PERF_SAMPLE_IDENTIFIER);
    if (sample_type & PERF_SAMPLE_IP)
        s.ip = in.next();
    if (sample_type & PERF_SAMPLE_TID)
        std::tie(s.pid, s.tid) = split_u32(in.next());
    if (sample_type & PERF_SAMPLE_TIME)
        s.time = in.next();
    if (sample_type & PERF_SAMPLE_ADDR)
        s.addr = in.next();
    in.skip_if(sample_type, PERF_SAMPLE_ID);
    in.skip_if(sample_type, PERF_SAMPLE_STREAM_ID);
    if (sample_type & PERF_SAMPLE_CPU)
        s.cpu = split_u32(in.next()).first;
    in.skip_if(sample_type, PERF_SAMPLE_PERIOD);
    if (sample_type & PERF_SAMPLE_WEIGHT)
        s.weight = in.next();
    if (sample_type & PERF_SAMPLE_WEIGHT_STRUCT)
        s.weight = split_u32(in.next()).first;
    if (sample_type & PERF_SAMPLE_DATA_SRC)
        s.data_src = in.next();
    return s; // later fields (transaction, phys_addr, page sizes) are not kept
}

} // namespace

void for_each_record(std::span<const std::byte> ring, std::uint64_t tail, std::uint64_t head,
                     const RecordVisitor& visit) {
    if (head < tail || head - tail > ring.size())
        throw PerfCorruptRecord(fmt::format("ring window [{}, {}) does not fit a {}-byte ring",
                                            tail, head, ring.size()));
    std::vector<std::byte> record;
    for (std::uint64_t pos = tail; pos < head;) {
        perf_event_header header{};
        if (head - pos < sizeof(header))
            throw PerfCorruptRecord(
                fmt::format("truncated record header at ring position {}", pos));
        copy_from_ring(ring, pos, sizeof(header), reinterpret_cast<std::byte*>(&header));
        if (header.size < sizeof(header) || header.size > head - pos)
            throw PerfCorruptRecord(fmt::format("record of type {} at ring position {} claims {} "
                                                "bytes, {} available",
                                                header.type, pos, header.size, head - pos));
        record.resize(header.size - sizeof(header));
        copy_from_ring(ring, pos + sizeof(header), record.size(), record.data());
        visit(header.type, record);
        pos += header.size;
    }
}

void for_each_record_of(std::uint32_t type, std::span<const std::byte> ring, std::uint64_t tail,
                        std::uint64_t head, RecordCounts& counts, const BodyVisitor& visit) {
    for_each_record(ring, tail, head, [&](std::uint32_t seen, std::span<const std::byte> body) {
        if (seen == type) {
            visit(body);
        } else if (seen == PERF_RECORD_LOST) {
            counts.lost_samples += lost_samples_in(body);
            ++counts.lost_records;
        } else {
            ++counts.other_records;
        }
    });
}

void copy_from_ring(std::span<const std::byte> ring, std::uint64_t pos, std::size_t n,
                    std::byte* out) {
    // A header-only record has an empty body whose data() may be null, and memcpy's pointers
    // must not be null even for 0 bytes (found by fuzz_sample_records).
    if (n == 0)
        return;
    const std::size_t offset = pos % ring.size();
    const std::size_t first = std::min(n, ring.size() - offset);
    std::memcpy(out, ring.data() + offset, first);
    std::memcpy(out + first, ring.data(), n - first);
}

MemorySample parse_sample_id(std::span<const std::byte> trailer, std::uint64_t sample_type) {
    BodyReader in(trailer);
    MemorySample s;
    if (sample_type & PERF_SAMPLE_TID)
        std::tie(s.pid, s.tid) = split_u32(in.next());
    if (sample_type & PERF_SAMPLE_TIME)
        s.time = in.next();
    in.skip_if(sample_type, PERF_SAMPLE_ID);
    in.skip_if(sample_type, PERF_SAMPLE_STREAM_ID);
    if (sample_type & PERF_SAMPLE_CPU)
        s.cpu = split_u32(in.next()).first;
    in.skip_if(sample_type, PERF_SAMPLE_IDENTIFIER);
    return s;
}

std::uint64_t lost_samples_in(std::span<const std::byte> lost_record_body) {
    BodyReader lost(lost_record_body);
    lost.next(); // id
    return lost.next();
}

SampleBatch parse_sample_records(std::span<const std::byte> ring, std::uint64_t tail,
                                 std::uint64_t head, std::uint64_t sample_type) {
    if (const std::uint64_t unsupported = sample_type & ~supported_sample_type)
        throw PerfInvalidConfig(
            fmt::format("sample_type bits {:#x} have variable size; not parsed", unsupported));
    SampleBatch batch;
    for_each_record_of(PERF_RECORD_SAMPLE, ring, tail, head, batch,
                       [&](std::span<const std::byte> body) {
                           batch.samples.push_back(parse_sample(body, sample_type));
                       });
    return batch;
}

} // namespace hitmap::perf
