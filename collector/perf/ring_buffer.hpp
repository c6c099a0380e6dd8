#pragma once
// The mmap'ed ring buffer of a sampling event: one metadata page, then a power-of-two data
// area the kernel writes records into and we consume.
#include "collector/perf/sample_records.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

struct perf_event_mmap_page;

namespace hitmap::perf {

class RingBuffer {
public:
    // Maps the ring of event `fd` with `data_pages` data pages (a power of two).
    RingBuffer(int fd, std::size_t data_pages);
    RingBuffer(RingBuffer&& other) noexcept;
    RingBuffer& operator=(RingBuffer&& other) noexcept;
    RingBuffer(const RingBuffer&) = delete;
    RingBuffer& operator=(const RingBuffer&) = delete;
    ~RingBuffer();

    // Parses everything written since the last drain and hands that space back to the kernel
    // (also when it turns out corrupt, so one bad record does not wedge the ring).
    SampleBatch drain(std::uint64_t sample_type);
    // The same for any record layout: parse(data area, tail, head) runs before the space is
    // handed back.
    using WindowParser = std::function<void(std::span<const std::byte> ring, std::uint64_t tail,
                                            std::uint64_t head)>;
    void consume(const WindowParser& parse);

    // The metadata page, shared with the kernel: where an AUX area is placed (aux_area.hpp).
    perf_event_mmap_page& metadata() const;

private:
    void* base_ = nullptr;
    std::size_t page_size_ = 0;
    std::size_t length_ = 0;
};

} // namespace hitmap::perf
