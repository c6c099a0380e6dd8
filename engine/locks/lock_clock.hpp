#pragma once
// The clock of the lock statistics: the TSC, scaled to nanoseconds by a rate calibrated once
// per process against steady_clock. An rdtsc costs ~10 ns on this VM against ~25 ns for a
// vDSO steady_clock read, and the uncontended path reads the clock twice. Intervals are good to
// about 0.02 % (the calibration's error), and never negative.
#include <chrono>
#include <cstdint>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace hitmap::engine {

class LockClock {
public:
    using Ticks = std::uint64_t;

    static Ticks now() {
#if defined(__x86_64__) || defined(__i386__)
        return __rdtsc();
#else
        return static_cast<Ticks>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now().time_since_epoch())
                                      .count());
#endif
    }

    static std::uint64_t ns_between(Ticks start, Ticks end) {
        if (end <= start) // another CPU's TSC a hair behind
            return 0;
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(end - start) * scale()) >>
                                          kShift);
    }

    // Calibrates now (~10 ms, once per process) rather than inside a measured lock().
    static void calibrate() {
        scale();
    }

private:
    static constexpr unsigned kShift = 32;
    // Nanoseconds per tick, fixed point with kShift fractional bits.
    static std::uint64_t scale() {
        static const std::uint64_t s = measure_scale();
        return s;
    }
    static std::uint64_t measure_scale();
};

} // namespace hitmap::engine
