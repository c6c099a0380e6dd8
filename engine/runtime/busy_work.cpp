#include "engine/runtime/busy_work.hpp"

#include <algorithm>
#include <array>

namespace hitmap::engine {

namespace {

// Loop iterations per ns on this host: the median of three timed 2^20-iteration runs.
double iterations_per_ns() {
    static const double rate = [] {
        constexpr std::uint64_t kProbe = 1u << 20;
        std::array<double, 3> rates{};
        for (double& r : rates) {
            const auto begin = std::chrono::steady_clock::now();
            std::uint64_t x = kProbe;
            for (std::uint64_t i = 0; i < kProbe; ++i)
                x = x * 6364136223846793005ull + 1442695040888963407ull;
            asm volatile("" : : "r"(x));
            const double ns =
                std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - begin)
                    .count();
            r = static_cast<double>(kProbe) / std::max(ns, 1.0);
        }
        std::sort(rates.begin(), rates.end());
        return rates[1];
    }();
    return rate;
}

} // namespace

BusyWork::BusyWork(std::chrono::nanoseconds target) {
    if (target.count() > 0)
        iterations_ =
            static_cast<std::uint64_t>(static_cast<double>(target.count()) * iterations_per_ns());
}

} // namespace hitmap::engine
