#include "engine/locks/lock_clock.hpp"

#include <thread>

namespace hitmap::engine {

namespace {

using SteadyNs = std::chrono::nanoseconds;

SteadyNs steady_now() {
    return std::chrono::duration_cast<SteadyNs>(
        std::chrono::steady_clock::now().time_since_epoch());
}

// A tick count and the steady time it was read at, taken between two steady reads that lie
// close together, so a preemption in between cannot skew the pair.
struct ClockPair {
    LockClock::Ticks ticks;
    SteadyNs steady;
};

ClockPair read_pair() {
    ClockPair best{};
    SteadyNs best_gap = SteadyNs::max();
    for (int attempt = 0; attempt < 16; ++attempt) {
        const SteadyNs before = steady_now();
        const LockClock::Ticks ticks = LockClock::now();
        const SteadyNs after = steady_now();
        if (after - before < best_gap) {
            best_gap = after - before;
            best = {ticks, before + (after - before) / 2};
        }
    }
    return best;
}

} // namespace

std::uint64_t LockClock::measure_scale() {
#if defined(__x86_64__) || defined(__i386__)
    const ClockPair start = read_pair();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const ClockPair end = read_pair();
    const auto ns = static_cast<unsigned __int128>((end.steady - start.steady).count());
    return static_cast<std::uint64_t>((ns << kShift) / (end.ticks - start.ticks));
#else
    return std::uint64_t{1} << kShift; // the ticks are steady_clock nanoseconds
#endif
}

} // namespace hitmap::engine
