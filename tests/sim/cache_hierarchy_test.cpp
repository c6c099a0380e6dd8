// The simulated machine's finite caches: capacity, the page-offset-indexed L1, the LLC one
// group shares, and invalidation. Exact: a cache is a function of the accesses made.
#include "collector/sim/cache_hierarchy.hpp"

#include <gtest/gtest.h>

namespace hitmap::sim {
namespace {

// epyc-2s-256: 32 KiB L1d and 512 KiB L2 per core, 32 MiB of L3 per 8-core CCX; CPU 128 is the
// second thread of CPU 0's core.
const MachineDescription& epyc() {
    static const MachineDescription m = find_machine("epyc-2s-256");
    return m;
}

TEST(CacheHierarchy, ASecondWalkOfMoreThanL1ButLessThanL2IsServedByL2) {
    CacheHierarchy caches(epyc());
    constexpr std::uint64_t kLines = 1024; // 64 KiB
    for (std::uint64_t l = 0; l < kLines; ++l)
        EXPECT_EQ(caches.access(0, l), CacheLevel::memory);
    for (std::uint64_t l = 0; l < kLines; ++l)
        EXPECT_EQ(caches.access(0, l), CacheLevel::l2) << l;
    // 256 lines fit in the L1: a third walk of the last 256 hits it.
    for (std::uint64_t l = kLines - 256; l < kLines; ++l)
        EXPECT_EQ(caches.access(0, l), CacheLevel::l1) << l;
}

TEST(CacheHierarchy, LinesAtOnePageOffsetCompeteForOneL1SetOfEightWays) {
    CacheHierarchy caches(epyc());
    for (std::uint64_t page = 0; page < 9; ++page)
        caches.access(0, page * 64);                // line 0 of nine pages
    EXPECT_EQ(caches.access(0, 0), CacheLevel::l2); // the least recent of the set went
    EXPECT_EQ(caches.access(0, 8 * 64), CacheLevel::l1);
}

TEST(CacheHierarchy, TheLlcIsSharedWithinACcxAndTheL1WithTheSmtSibling) {
    CacheHierarchy caches(epyc());
    caches.access(0, 42);
    EXPECT_EQ(caches.access(128, 42), CacheLevel::l1);   // the same core's second thread
    EXPECT_EQ(caches.access(7, 42), CacheLevel::llc);    // another core of the CCX
    EXPECT_EQ(caches.access(8, 42), CacheLevel::memory); // the next CCX
}

TEST(CacheHierarchy, AnInvalidationLeavesTheLineOnlyInTheSharedLevel) {
    CacheHierarchy caches(epyc());
    caches.access(0, 7);
    caches.invalidate(0, 7);
    EXPECT_EQ(caches.access(0, 7), CacheLevel::llc);
}

} // namespace
} // namespace hitmap::sim
