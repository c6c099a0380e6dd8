#pragma once
// A perf ring buffer written the way the kernel writes it, for the record parsers' tests.
#include <cstddef>
#include <cstdint>
#include <linux/perf_event.h>
#include <span>
#include <vector>

namespace hitmap::perf {

// Writes records into a small ring the way the kernel does: positions grow, bytes wrap.
class FakeRing {
public:
    FakeRing(std::size_t size, std::uint64_t start)
        : bytes_(size)
        , tail_(start)
        , head_(start) {}

    void record(std::uint32_t type, const std::vector<std::uint64_t>& words) {
        record_bytes(type, words.data(), words.size() * 8);
    }
    // A record with an arbitrary body (a multiple of 8 bytes, as the kernel pads).
    void record_bytes(std::uint32_t type, const void* body, std::size_t n) {
        perf_event_header header{};
        header.type = type;
        header.misc = PERF_RECORD_MISC_USER;
        header.size = static_cast<std::uint16_t>(sizeof(header) + n);
        put(&header, sizeof(header));
        put(body, n);
    }

    // A header whose size runs past what was written (a torn or corrupt record).
    void bare_header(std::uint32_t type, std::uint16_t claimed_size) {
        perf_event_header header{type, 0, claimed_size};
        put(&header, sizeof(header));
    }

    std::uint64_t tail() const { return tail_; }
    std::uint64_t head() const { return head_; }
    std::span<const std::byte> bytes() const { return bytes_; }

private:
    void put(const void* data, std::size_t n) {
        const auto* in = static_cast<const std::byte*>(data);
        for (std::size_t i = 0; i < n; ++i)
            bytes_[(head_ + i) % bytes_.size()] = in[i];
        head_ += n;
    }

    std::vector<std::byte> bytes_;
    std::uint64_t tail_;
    std::uint64_t head_;
};

} // namespace hitmap::perf
