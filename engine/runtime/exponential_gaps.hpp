#pragma once
// The gaps between one task's events, as multiples of their mean: exponential, as the gaps of
// independent tasks are. Equal gaps would keep every virtual CPU in step with the others, all
// reaching a lock at once each period, which no benchmark does. Deterministic per task, so a
// simulation stays a function of its inputs.
#include "engine/runtime/splitmix64.hpp"

#include <cmath>
#include <cstdint>

namespace hitmap::engine {

class ExponentialGaps {
public:
    // splitmix64 walks one sequence by a fixed step, and each task starts it at a scattered
    // point. Started at multiples of the step, task t + 1 drew task t's gaps one event later: every
    // task ran one schedule shifted by a constant, and the tasks never drifted apart.
    explicit ExponentialGaps(unsigned task)
        : state_(splitmix64_mix(kStep * (task + 1))) {}

    double next() {
        // A uniform draw in (0, 1], then its exponential.
        const std::uint64_t z = splitmix64_mix(state_ += kStep);
        return -std::log(static_cast<double>((z >> 11) + 1) * 0x1.0p-53);
    }

private:
    static constexpr std::uint64_t kStep = 0x9E3779B97F4A7C15ull; // splitmix64's

    std::uint64_t state_;
};

} // namespace hitmap::engine
