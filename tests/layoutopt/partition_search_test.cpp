// The search on hand-made cost matrices: known optima, the keep-order constraint, the line
// budget, cold items, and an exhaustive cross-check on random matrices.
#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/partition_search.hpp"

#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace hitmap::layoutopt {
namespace {

using Lines = std::vector<std::vector<std::size_t>>;

// n items of 8 bytes, all hot, no costs yet.
PartitionProblem problem(std::size_t n, std::uint32_t max_lines) {
    PartitionProblem p;
    p.sizes.assign(n, 8);
    p.hot.assign(n, true);
    p.costs.self.assign(n, 0);
    p.costs.pair.assign(n, std::vector<double>(n, 0));
    p.max_lines = max_lines;
    return p;
}

void set_pair(PartitionProblem& p, std::size_t a, std::size_t b, double cost) {
    p.costs.pair[a][b] = p.costs.pair[b][a] = cost;
}

TEST(PartitionSearch, SeparatesTheWrittenFieldFromItsReadersAndKeepsTheReadersTogether) {
    // Item 0 is written by every CPU (a counter), 1..3 are read beside it: sharing with 0 costs,
    // and 1 and 2 are read together, so one of their transfers brings the other along.
    PartitionProblem p = problem(4, 2);
    p.costs.self = {50, 0, 0, 0};
    for (std::size_t k = 1; k < 4; ++k)
        set_pair(p, 0, k, 30);
    set_pair(p, 1, 2, -5);
    const PartitionSearch s = search_partitions(p);
    ASSERT_FALSE(s.best.empty());
    EXPECT_TRUE(s.exhaustive);
    EXPECT_EQ(s.best[0].lines, (Lines{{0}, {1, 2, 3}}));
    EXPECT_DOUBLE_EQ(s.best[0].cost, 45);
    EXPECT_DOUBLE_EQ(model_cost(p.costs, s.best[0].lines), 45);
}

TEST(PartitionSearch, ReturnsDistinctCandidatesCheapestFirst) {
    PartitionProblem p = problem(5, 3);
    set_pair(p, 0, 1, 7);
    set_pair(p, 2, 3, 3);
    set_pair(p, 1, 4, -2);
    p.keep = 6;
    const PartitionSearch s = search_partitions(p);
    ASSERT_EQ(s.best.size(), 6u);
    for (std::size_t i = 1; i < s.best.size(); ++i) {
        EXPECT_LE(s.best[i - 1].cost, s.best[i].cost);
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_NE(s.best[i].lines, s.best[j].lines);
    }
    EXPECT_DOUBLE_EQ(s.best[0].cost, -2);
}

TEST(PartitionSearch, TheLineBudgetForcesSharing) {
    // Nine 8-byte items do not fit one 64-byte line; with one line allowed there is no layout.
    PartitionProblem p = problem(9, 1);
    EXPECT_THROW(search_partitions(p), OptimizeError);
    // Two lines: the costliest pair is split, everything else must share.
    p.max_lines = 2;
    set_pair(p, 0, 8, 100);
    const PartitionSearch s = search_partitions(p);
    for (const auto& line : s.best[0].lines) {
        EXPECT_LE(line.size() * 8, 64u);
        const bool has0 = std::find(line.begin(), line.end(), 0u) != line.end();
        const bool has8 = std::find(line.begin(), line.end(), 8u) != line.end();
        EXPECT_FALSE(has0 && has8);
    }
    EXPECT_DOUBLE_EQ(s.best[0].cost, 0);
}

TEST(PartitionSearch, ItemsPackInTheirOrderWithAlignmentPadding) {
    // A 1-byte item before seven 8-byte ones takes 8 bytes with its padding: 64 in all fits,
    // a ninth item (another byte) does not fit the same line.
    PartitionProblem p = problem(9, 1);
    p.sizes = {1, 8, 8, 8, 8, 8, 8, 8, 1};
    EXPECT_THROW(search_partitions(p), OptimizeError);
    p.max_lines = 2;
    EXPECT_EQ(search_partitions(p).best[0].lines.size(), 2u);
}

TEST(PartitionSearch, KeepOrderConstrainsWhichLinesMayShare) {
    // Unconstrained, {0,2} and {1,3} is cheapest. Keeping 0, 1, 2 in order, 0 and 2 can share
    // only with 1 between them, which costs more: the best is {0}, {1,3}, {2}.
    PartitionProblem p = problem(4, 3);
    set_pair(p, 0, 2, -20);
    set_pair(p, 1, 3, -20);
    set_pair(p, 0, 1, 100);
    set_pair(p, 2, 3, 100);
    set_pair(p, 0, 3, 100);
    set_pair(p, 1, 2, 100);
    EXPECT_DOUBLE_EQ(search_partitions(p).best[0].cost, -40);
    p.keep_order = {0, 1, 2};
    const PartitionSearch s = search_partitions(p);
    EXPECT_EQ(s.best[0].lines, (Lines{{0}, {1, 3}, {2}}));
    EXPECT_DOUBLE_EQ(s.best[0].cost, -20);
    // Every candidate keeps the order: the line of each kept item is not before the previous.
    for (const Partition& c : s.best) {
        std::vector<std::size_t> line_of(4);
        for (std::size_t l = 0; l < c.lines.size(); ++l)
            for (const std::size_t i : c.lines[l])
                line_of[i] = l;
        EXPECT_LE(line_of[0], line_of[1]);
        EXPECT_LE(line_of[1], line_of[2]);
    }
}

TEST(PartitionSearch, ColdItemsGoToTheLineThatCostsLeast) {
    // Item 2 is never accessed: it joins the line of the read item, not the written one.
    PartitionProblem p = problem(3, 2);
    p.hot = {true, true, false};
    p.costs.self = {100, 0, 0};
    set_pair(p, 0, 1, 50);
    const PartitionSearch s = search_partitions(p);
    EXPECT_EQ(s.best[0].lines, (Lines{{0}, {1, 2}}));
    EXPECT_DOUBLE_EQ(s.best[0].cost, 100);
}

TEST(PartitionSearch, MatchesExhaustiveEnumerationOnRandomMatrices) {
    std::mt19937 rng(16); // fixed seed: the same matrices on every run
    std::uniform_int_distribution<int> cost(-20, 60);
    for (int trial = 0; trial < 20; ++trial) {
        const std::size_t n = 7;
        const std::uint32_t lines = 3;
        PartitionProblem p = problem(n, lines);
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = a + 1; b < n; ++b)
                set_pair(p, a, b, cost(rng));
        // Every assignment of items to lines (3^7), capacity 8 items of 8 bytes per line.
        double best = std::numeric_limits<double>::infinity();
        std::vector<std::size_t> line_of(n, 0);
        for (std::size_t code = 0; code < 2187; ++code) {
            std::size_t c = code;
            for (std::size_t i = 0; i < n; ++i, c /= lines)
                line_of[i] = c % lines;
            double total = 0;
            for (std::size_t a = 0; a < n; ++a)
                for (std::size_t b = a + 1; b < n; ++b)
                    if (line_of[a] == line_of[b])
                        total += p.costs.pair[a][b];
            best = std::min(best, total);
        }
        const PartitionSearch s = search_partitions(p);
        ASSERT_TRUE(s.exhaustive);
        EXPECT_DOUBLE_EQ(s.best[0].cost, best) << "trial " << trial;
        EXPECT_EQ(s.best[0].lines, search_partitions(p).best[0].lines) << "deterministic";
    }
}

TEST(PartitionSearch, StopsAtTheNodeBudgetWithTheBestFound) {
    std::mt19937 rng(17);
    std::uniform_int_distribution<int> cost(-30, 30);
    PartitionProblem p = problem(24, 6);
    for (std::size_t a = 0; a < 24; ++a)
        for (std::size_t b = a + 1; b < 24; ++b)
            set_pair(p, a, b, cost(rng));
    p.node_budget = 10'000;
    const PartitionSearch s = search_partitions(p);
    EXPECT_FALSE(s.exhaustive);
    EXPECT_EQ(s.nodes, 10'000u);
    ASSERT_FALSE(s.best.empty());
    for (const Partition& c : s.best)
        EXPECT_DOUBLE_EQ(c.cost, model_cost(p.costs, c.lines));
}

} // namespace
} // namespace hitmap::layoutopt
