#include "engine/runtime/busy_work.hpp"

#include "engine/runtime/simulation.hpp"

#include <algorithm>
#include <array>
#include <atomic>

namespace hitmap::engine {

namespace {

std::atomic<int> g_excluded{0};

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

BusyWork::BusyWork(std::chrono::nanoseconds target)
    : target_(target) {
    if (target.count() > 0)
        iterations_ =
            static_cast<std::uint64_t>(static_cast<double>(target.count()) * iterations_per_ns());
}

} // namespace hitmap::engine

namespace hitmap::engine {

void BusyWork::run(double factor) const {
    if (target_.count() <= 0)
        return;
    if (Simulation* sim = current_simulation()) {
        sim->outside_work(std::chrono::nanoseconds(
            static_cast<std::int64_t>(static_cast<double>(target_.count()) * factor + 0.5)));
        return;
    }
    if (g_excluded.load(std::memory_order_relaxed) > 0)
        return;
    const auto n = static_cast<std::uint64_t>(static_cast<double>(iterations_) * factor);
    std::uint64_t x = n;
    for (std::uint64_t i = 0; i < n; ++i)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : : "r"(x)); // keeps the loop: nothing reads x
}

BusyWork::Excluded::Excluded() {
    g_excluded.fetch_add(1, std::memory_order_relaxed);
}

BusyWork::Excluded::~Excluded() {
    g_excluded.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace hitmap::engine
