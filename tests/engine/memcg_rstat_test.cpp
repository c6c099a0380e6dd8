// The memcg statistics of v6.5 and v6.6 (seed 002): both print the same memory.stat; v6.6's
// local counters come from the flush, which runs only past the threshold of online CPUs.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/memcg/memcg_rstat.hpp"

#include <gtest/gtest.h>
#include <sstream>

namespace hitmap::engine {
namespace {

constexpr unsigned kCache = 0;    // kMemcg1States[0]
constexpr unsigned kPgfault = 17; // kMemcg1Events[2], after the 15 states

struct Fixture {
    ObjectRegistry registry;
    MemcgRstat stats;
    MemcgRstatCounts counts;

    explicit Fixture(StatsVersion version)
        : stats(registry,
                MemcgRstatConfig{version, 3, 4, 1, *find_builtin_layout("mem_cgroup", "v6.1")}) {}

    std::string memory_stat(unsigned m) {
        std::string text;
        stats.memory_stat<false>(0, m, text, counts);
        return text;
    }
};

std::string line_of(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + " ", 0) == 0)
            return line;
    return "(none)";
}

TEST(MemcgRstat, BothVersionsPrintTheSameMemoryStatOnceTheThresholdIsPassed) {
    for (const StatsVersion v : {StatsVersion::v6_5, StatsVersion::v6_6}) {
        Fixture f(v);
        f.stats.update<false>(1, 2, kCache, 100);
        f.stats.update<false>(3, 2, kCache, -30);
        f.stats.update<false>(3, 2, kPgfault, 7);
        // 100 and 37 updates: CPU 1 passed MEMCG_CHARGE_BATCH once, CPU 3 not yet: 1 is not
        // more than the one online CPU, so no flush; v6.6's local counter is still 0.
        const std::string before = f.memory_stat(2);
        EXPECT_EQ(f.counts.flushes, 0u);
        EXPECT_EQ(line_of(before, "cache"),
                  v == StatsVersion::v6_5 ? "cache " + std::to_string(70 * 4096) : "cache 0");
        f.stats.update<false>(3, 1, kPgfault, 40); // CPU 3 at 77: the threshold is 2
        const std::string text = f.memory_stat(2);
        EXPECT_EQ(f.counts.flushes, 1u);
        EXPECT_EQ(f.counts.flushed_pairs, 5u); // CPU 1: memcg 2 and the root; CPU 3: 2, 1, root
        EXPECT_EQ(line_of(text, "cache"), "cache " + std::to_string(70 * 4096));
        EXPECT_EQ(line_of(text, "pgfault"), "pgfault 7");
        EXPECT_EQ(line_of(text, "total_cache"), "total_cache " + std::to_string(70 * 4096));
        EXPECT_EQ(f.stats.local_value(2, kCache), 70);
        EXPECT_EQ(f.stats.total_value(0, kPgfault), 47); // the root's subtree
        EXPECT_EQ(f.stats.local_value(0, kPgfault), 0);
        // 19 local items, two limits, 19 totals.
        EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 40);
        EXPECT_EQ(line_of(text, "hierarchical_memory_limit").substr(0, 26),
                  "hierarchical_memory_limit ");
    }
}

TEST(MemcgRstat, AFlushFoldsEachCpusDeltaOnceAndASecondFlushNeedsNewUpdates) {
    Fixture f(StatsVersion::v6_6);
    f.stats.update<false>(0, 1, kCache, 200);
    f.stats.update<false>(1, 1, kCache, 200);
    f.memory_stat(1);
    EXPECT_EQ(f.counts.flushes, 1u);
    EXPECT_EQ(f.stats.local_value(1, kCache), 400);
    f.memory_stat(1);
    EXPECT_EQ(f.counts.flushes, 1u); // the threshold was reset
    EXPECT_EQ(f.stats.local_value(1, kCache), 400);
    EXPECT_EQ(f.stats.total_value(0, kCache), 400);
}

} // namespace
} // namespace hitmap::engine
