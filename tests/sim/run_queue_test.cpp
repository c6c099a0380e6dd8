#include "collector/sim/run_queue.hpp"

#include <gtest/gtest.h>
#include <random>
#include <set>

namespace hitmap::sim {
namespace {

TEST(RunQueue, EarliestFirstAndTiesToTheLowerCpu) {
    RunQueue q;
    q.push(30, 1);
    q.push(10, 5);
    q.push(10, 2);
    q.push(20, 0);
    EXPECT_TRUE(q.earlier_than(10, 3)); // (10, 2) comes first
    EXPECT_FALSE(q.earlier_than(10, 2));
    EXPECT_EQ(q.pop(), 2u);
    EXPECT_EQ(q.pop(), 5u);
    EXPECT_EQ(q.replace_top(25, 7), 0u); // (20, 0) out, (25, 7) in
    EXPECT_EQ(q.pop(), 7u);
    EXPECT_EQ(q.pop(), 1u);
    EXPECT_TRUE(q.empty());
}

// replace_top is pop then push: against a sorted set of the same (time, CPU) keys.
TEST(RunQueue, ReplaceTopKeepsTheOrderOfASortedSet) {
    std::mt19937_64 rng(7);
    RunQueue q;
    std::set<std::pair<std::uint64_t, unsigned>> reference;
    for (unsigned c = 0; c < 64; ++c) {
        const std::uint64_t t = rng() % 1000;
        q.push(t, c);
        reference.emplace(t, c);
    }
    for (int i = 0; i < 5000; ++i) {
        const auto [time, cpu] = *reference.begin();
        reference.erase(reference.begin());
        const std::uint64_t later = time + rng() % 200;
        ASSERT_EQ(q.replace_top(later, cpu), cpu) << i;
        reference.emplace(later, cpu);
    }
    for (const auto& [time, cpu] : reference)
        EXPECT_EQ(q.pop(), cpu);
    EXPECT_TRUE(q.empty());
}

TEST(RunQueue, VirtualTimePastItsLimitIsASimulationError) {
    RunQueue q;
    EXPECT_THROW(q.push(RunQueue::kMaxTimePs + 1, 0), SimulationError);
}

} // namespace
} // namespace hitmap::sim
