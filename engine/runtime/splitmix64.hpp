#pragma once
// splitmix64's finaliser: a 64-bit bijection whose outputs look independent for inputs that
// differ in a bit or a step. The simulation's deterministic draws and the simulated caches' set
// index both scatter with it.
#include <cstdint>

namespace hitmap::engine {

constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace hitmap::engine
