#include "engine/memcg/percpu_area.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace hitmap::engine {

PercpuArea::PercpuArea(unsigned possible_cpus)
    : possible_cpus_(possible_cpus)
    , possible_mask_((possible_cpus + 63) / 64, ~std::uint64_t{0}) {
    if (possible_cpus == 0)
        throw std::invalid_argument("a percpu area needs at least one possible CPU");
    if (possible_cpus % 64 != 0)
        possible_mask_.back() = (std::uint64_t{1} << (possible_cpus % 64)) - 1;
}

// _find_next_bit(): the word holding `from`, masked below it, then the words after it. Out of
// line, as the kernel calls it for a mask whose size is not a compile-time constant.
[[gnu::noinline]] unsigned PercpuArea::find_next_possible(unsigned from) const {
    if (from >= possible_cpus_)
        return possible_cpus_;
    std::size_t word = from / 64;
    std::uint64_t bits = possible_mask_[word] & (~std::uint64_t{0} << (from % 64));
    while (bits == 0) {
        if (++word == possible_mask_.size())
            return possible_cpus_;
        bits = possible_mask_[word];
    }
    return std::min(possible_cpus_, static_cast<unsigned>(word * 64 + std::countr_zero(bits)));
}

std::uint32_t PercpuArea::alloc(std::uint32_t bytes, std::uint32_t align) {
    if (!units_.empty())
        throw std::logic_error("percpu area: alloc after commit");
    if (align < sizeof(std::int64_t) || align > 64 || (align & (align - 1)) != 0)
        throw std::invalid_argument("percpu area: alignment must be a power of two in 8..64");
    const std::uint32_t offset = (unit_bytes_ + align - 1) & ~(align - 1);
    unit_bytes_ = offset + ((bytes + 7) & ~7u);
    return offset;
}

void PercpuArea::commit() {
    constexpr std::size_t kLineWords = 64 / sizeof(std::int64_t);
    const std::size_t words = (unit_bytes_ + 63) / 64 * kLineWords; // whole lines
    units_.reserve(possible_cpus_);
    for (unsigned c = 0; c < possible_cpus_; ++c) {
        // Value-initialised (zero), with a line's slack so the unit can start on a line.
        auto& block = storage_.emplace_back(std::make_unique<std::int64_t[]>(words + kLineWords));
        const auto addr = reinterpret_cast<std::uintptr_t>(block.get());
        units_.push_back(block.get() + ((64 - addr % 64) % 64) / sizeof(std::int64_t));
    }
}

} // namespace hitmap::engine
