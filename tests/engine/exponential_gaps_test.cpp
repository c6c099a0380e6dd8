// The per-task gaps a simulation draws: independent across tasks (no task replays another's
// draws shifted by a few events, as the first version did), exponential, and the same twice.
#include "engine/runtime/exponential_gaps.hpp"

#include <gtest/gtest.h>
#include <vector>

namespace hitmap::engine {
namespace {

std::vector<double> draws(unsigned task, std::size_t n) {
    ExponentialGaps gaps(task);
    std::vector<double> out(n);
    for (double& d : out)
        d = gaps.next();
    return out;
}

TEST(ExponentialGaps, NoTaskReplaysAnothersDraws) {
    constexpr std::size_t kDraws = 1000;
    constexpr unsigned kTasks = 64;
    std::vector<std::vector<double>> task(kTasks);
    for (unsigned t = 0; t < kTasks; ++t)
        task[t] = draws(t, kDraws);
    for (unsigned a = 0; a < kTasks; ++a)
        for (unsigned b = a + 1; b < kTasks; ++b) {
            const auto &x = task[a], &y = task[b];
            // Task b's draws are not task a's from some later event on.
            for (std::size_t lag = 0; lag < 128; ++lag) {
                std::size_t same = 0;
                for (std::size_t i = 0; i + lag < kDraws; ++i)
                    same += x[i + lag] == y[i];
                EXPECT_LT(same, 2u)
                    << "task " << b << " draws task " << a << "'s " << lag << " events later";
            }
        }
}

TEST(ExponentialGaps, AreExponentialWithMeanOne) {
    const auto d = draws(7, 200000);
    double sum = 0, sq = 0;
    std::size_t over_three = 0;
    for (double x : d) {
        EXPECT_GE(x, 0.0);
        sum += x;
        sq += x * x;
        over_three += x > 3.0;
    }
    const double n = static_cast<double>(d.size());
    EXPECT_NEAR(sum / n, 1.0, 0.01);
    EXPECT_NEAR(sq / n - (sum / n) * (sum / n), 1.0,
                0.03); // an exponential's variance is its mean²
    EXPECT_NEAR(static_cast<double>(over_three) / n, std::exp(-3.0), 0.003);
}

TEST(ExponentialGaps, ATaskDrawsTheSameTwice) {
    EXPECT_EQ(draws(3, 100), draws(3, 100));
}

} // namespace
} // namespace hitmap::engine
