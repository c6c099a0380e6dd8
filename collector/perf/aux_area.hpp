#pragma once
// The mmap'ed AUX area of a perf event (SPE, Intel PT): a second power-of-two buffer placed
// after the ring's data area through the ring's metadata page (aux_offset, aux_size), written
// by the hardware and handed back through aux_tail. What it holds is read by
// parse_aux_ring (aux_records.hpp); this class is only the mapping.
#include "collector/perf/ring_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace hitmap::perf {

class AuxArea {
public:
    // Maps `pages` pages (a power of two; the SPE driver wants at least 2) for event `fd`,
    // whose ring is `ring`; the ring must outlive the area.
    AuxArea(int fd, RingBuffer& ring, std::size_t pages);
    AuxArea(AuxArea&& other) noexcept;
    AuxArea& operator=(AuxArea&& other) noexcept;
    AuxArea(const AuxArea&) = delete;
    AuxArea& operator=(const AuxArea&) = delete;
    ~AuxArea();

    std::span<const std::byte> bytes() const;
    std::uint64_t head() const; // aux_head: what the kernel has published
    std::uint64_t tail() const; // aux_tail: what was handed back
    // Hands [tail(), position) back to the kernel.
    void release(std::uint64_t position);

private:
    perf_event_mmap_page* meta_ = nullptr;
    void* base_ = nullptr;
    std::size_t length_ = 0;
};

} // namespace hitmap::perf
