#pragma once
// Work outside the modelled kernel paths (the rest of a netperf send: the TCP stack, the copy),
// as a dependent arithmetic loop. It touches no shared memory, so natively it costs only its
// own time, and a simulation's calibration measures it like any other work between probes.
// The loop count for a target time comes from a rate measured once per process; only the
// native time depends on it, a simulation's virtual time comes from its calibration.
#include <chrono>
#include <cstdint>

namespace hitmap::engine {

class BusyWork {
public:
    explicit BusyWork(std::chrono::nanoseconds target);
    void run() const {
        std::uint64_t x = iterations_;
        for (std::uint64_t i = 0; i < iterations_; ++i)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
        asm volatile("" : : "r"(x)); // keeps the loop: nothing reads x
    }
    std::uint64_t iterations() const { return iterations_; }

private:
    std::uint64_t iterations_ = 0;
};

} // namespace hitmap::engine
