#pragma once
// Work outside the modelled kernel paths (the rest of a netperf send: the TCP stack, the copy),
// as a dependent arithmetic loop. It touches no shared memory, so natively it costs only its
// own time. Inside a simulation it costs exactly its target in virtual time, and it is left out
// of calibrations (BusyWork::Excluded), so a simulated run's figure is the parameter itself,
// not a noisy measurement of a loop.
// The loop count for a target time comes from a rate measured once per process.
#include <chrono>
#include <cstdint>

namespace hitmap::engine {

class BusyWork {
public:
    explicit BusyWork(std::chrono::nanoseconds target);
    void run() const { run(1.0); }
    // `factor` times the target: one draw of work whose mean is the target.
    void run(double factor) const;
    std::uint64_t iterations() const { return iterations_; }

    // While one exists, native runs skip the loop: a calibration measures the engine's code
    // without it. Process-wide, as calibrations run one at a time before any simulation.
    class Excluded {
    public:
        Excluded();
        ~Excluded();
        Excluded(const Excluded&) = delete;
        Excluded& operator=(const Excluded&) = delete;
    };

private:
    std::chrono::nanoseconds target_{0};
    std::uint64_t iterations_ = 0;
};

} // namespace hitmap::engine
