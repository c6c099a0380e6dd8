#include "collector/perf/ring_buffer.hpp"

#include "collector/perf/errors.hpp"

#include <cerrno>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace hitmap::perf {

RingBuffer::RingBuffer(int fd, std::size_t data_pages)
    : page_size_(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)))
    , length_((data_pages + 1) * page_size_) {
    if (data_pages == 0 || (data_pages & (data_pages - 1)) != 0)
        throw PerfInvalidConfig(
            fmt::format("ring buffer of {} data pages: needs a power of two", data_pages));
    // Writable so that data_tail can be published: the kernel then never overwrites unread data.
    void* base = ::mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        throw_errno(fmt::format("mmap of a {}-page perf ring buffer", data_pages + 1), errno);
    base_ = base;
}

RingBuffer::RingBuffer(RingBuffer&& other) noexcept
    : base_(std::exchange(other.base_, nullptr))
    , page_size_(other.page_size_)
    , length_(other.length_) {}

RingBuffer& RingBuffer::operator=(RingBuffer&& other) noexcept {
    if (this != &other) {
        if (base_)
            ::munmap(base_, length_);
        base_ = std::exchange(other.base_, nullptr);
        page_size_ = other.page_size_;
        length_ = other.length_;
    }
    return *this;
}

RingBuffer::~RingBuffer() {
    if (base_)
        ::munmap(base_, length_);
}

void RingBuffer::consume(const WindowParser& parse) {
    auto* meta = static_cast<perf_event_mmap_page*>(base_);
    const std::uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    const std::uint64_t tail = meta->data_tail;
    const std::span<const std::byte> data(static_cast<const std::byte*>(base_) + page_size_,
                                          length_ - page_size_);
    struct ReleaseOnExit {
        perf_event_mmap_page* meta;
        std::uint64_t head;
        ~ReleaseOnExit() { __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE); }
    } release{meta, head};
    parse(data, tail, head);
}

perf_event_mmap_page& RingBuffer::metadata() const {
    return *static_cast<perf_event_mmap_page*>(base_);
}

SampleBatch RingBuffer::drain(std::uint64_t sample_type) {
    SampleBatch batch;
    consume([&](std::span<const std::byte> data, std::uint64_t tail, std::uint64_t head) {
        batch = parse_sample_records(data, tail, head, sample_type);
    });
    return batch;
}

} // namespace hitmap::perf
