#include "collector/c2c/trace_merger.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <tuple>
#include <vector>

namespace hitmap::c2c {
namespace {

using engine::AccessKind;
using engine::TraceRecord;

// The merge order as (stream index, position in stream).
std::vector<std::pair<std::uint32_t, std::size_t>> merged(std::span<const ThreadTrace> threads) {
    std::vector<std::pair<std::uint32_t, std::size_t>> order;
    const TraceMerger merger(threads);
    merger.merge([&](std::uint32_t s, const TraceRecord& r) {
        order.emplace_back(s, static_cast<std::size_t>(&r - threads[s].records.data()));
    });
    EXPECT_EQ(order.size(), merger.records());
    return order;
}

TraceRecord at(std::uint64_t tsc) {
    return TraceRecord::make(tsc, 0, 0, 0, AccessKind::load, 3, 0, 0);
}

TEST(TraceMerger, EqualTscsGoByThreadIdThenPosition) {
    const std::vector<TraceRecord> t7{at(5), at(5), at(9)};
    const std::vector<TraceRecord> t3{at(5), at(9)};
    const std::vector<ThreadTrace> threads{{7, t7}, {3, t3}}; // span order differs from id order
    const std::vector<std::pair<std::uint32_t, std::size_t>> expected{
        {1, 0}, {0, 0}, {0, 1}, {1, 1}, {0, 2}};
    EXPECT_EQ(merged(threads), expected);
}

TEST(TraceMerger, EmptyStreamsAndNoStreams) {
    const std::vector<TraceRecord> one{at(1), at(2)};
    const std::vector<ThreadTrace> threads{{0, {}}, {1, one}, {2, {}}};
    const std::vector<std::pair<std::uint32_t, std::size_t>> expected{{1, 0}, {1, 1}};
    EXPECT_EQ(merged(threads), expected);
    EXPECT_TRUE(merged({}).empty());
}

// 5 streams: a loser tree over 8 leaves, 3 of them padding.
TEST(TraceMerger, MatchesAStableSortOfRandomInterleavedRuns) {
    std::uint64_t seed = 42;
    const auto next = [&] {
        return (seed = seed * 6364136223846793005u + 1442695040888963407u) >> 33;
    };
    std::vector<std::vector<TraceRecord>> streams(5);
    for (auto& s : streams) {
        std::uint64_t tsc = next() % 50;
        const std::size_t n = 200 + next() % 800;
        for (std::size_t i = 0; i < n; ++i) {
            // Mostly small steps, sometimes long jumps: runs of every length, many ties.
            tsc += next() % 8 == 0 ? next() % 400 : next() % 3;
            s.push_back(at(tsc));
        }
    }
    std::vector<ThreadTrace> threads;
    for (std::uint32_t i = 0; i < streams.size(); ++i)
        threads.push_back({10 - i, streams[i]});

    std::vector<std::tuple<std::uint64_t, std::uint32_t, std::size_t, std::uint32_t>> reference;
    for (std::uint32_t s = 0; s < streams.size(); ++s)
        for (std::size_t p = 0; p < streams[s].size(); ++p)
            reference.emplace_back(streams[s][p].tsc(), threads[s].thread, p, s);
    std::sort(reference.begin(), reference.end());

    const auto order = merged(threads);
    ASSERT_EQ(order.size(), reference.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        ASSERT_EQ(order[i].first, std::get<3>(reference[i])) << "at " << i;
        ASSERT_EQ(order[i].second, std::get<2>(reference[i])) << "at " << i;
    }
}

TEST(TraceMerger, KeepsAStreamsOwnOrderWhenItsTscStepsBack) {
    const std::vector<TraceRecord> a{at(10), at(4), at(20)};
    const std::vector<TraceRecord> b{at(5)};
    const std::vector<ThreadTrace> threads{{0, a}, {1, b}};
    const auto order = merged(threads);
    ASSERT_EQ(order.size(), 4u);
    std::vector<std::size_t> a_positions;
    for (const auto& [s, p] : order)
        if (s == 0)
            a_positions.push_back(p);
    EXPECT_EQ(a_positions, (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(order.front(), (std::pair<std::uint32_t, std::size_t>{1, 0}));
}

} // namespace
} // namespace hitmap::c2c
