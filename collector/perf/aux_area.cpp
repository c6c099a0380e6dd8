#include "collector/perf/aux_area.hpp"

#include "collector/perf/errors.hpp"

#include <cerrno>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace hitmap::perf {

AuxArea::AuxArea(int fd, RingBuffer& ring, std::size_t pages)
    : meta_(&ring.metadata())
    , length_(pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))) {
    if (pages == 0 || (pages & (pages - 1)) != 0)
        throw PerfInvalidConfig(fmt::format("AUX area of {} pages: needs a power of two", pages));
    // The kernel fills data_offset and data_size (Linux 4.1+, as the AUX area); the AUX area
    // goes right after the data area.
    meta_->aux_offset = meta_->data_offset + meta_->data_size;
    meta_->aux_size = length_;
    // Writable, as the ring: the kernel then honours aux_tail and never overwrites unread
    // data, flagging TRUNCATED instead (the read-only mapping is the overwriting snapshot mode).
    void* base = ::mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                        static_cast<off_t>(meta_->aux_offset));
    if (base == MAP_FAILED)
        throw_errno(fmt::format("mmap of a {}-page perf AUX area", pages), errno);
    base_ = base;
}

AuxArea::AuxArea(AuxArea&& other) noexcept
    : meta_(std::exchange(other.meta_, nullptr))
    , base_(std::exchange(other.base_, nullptr))
    , length_(other.length_) {}

AuxArea& AuxArea::operator=(AuxArea&& other) noexcept {
    if (this != &other) {
        if (base_)
            ::munmap(base_, length_);
        meta_ = std::exchange(other.meta_, nullptr);
        base_ = std::exchange(other.base_, nullptr);
        length_ = other.length_;
    }
    return *this;
}

AuxArea::~AuxArea() {
    if (base_)
        ::munmap(base_, length_);
}

std::span<const std::byte> AuxArea::bytes() const {
    return {static_cast<const std::byte*>(base_), length_};
}

std::uint64_t AuxArea::head() const {
    return __atomic_load_n(&meta_->aux_head, __ATOMIC_ACQUIRE);
}

std::uint64_t AuxArea::tail() const {
    return meta_->aux_tail;
}

void AuxArea::release(std::uint64_t position) {
    __atomic_store_n(&meta_->aux_tail, position, __ATOMIC_RELEASE);
}

} // namespace hitmap::perf
