#pragma once
#include <cstdint>

namespace hitmap::engine {

// PAGE_SIZE on x86-64: what every charge counts in.
inline constexpr std::uint64_t kPageSize = 4096;

} // namespace hitmap::engine
