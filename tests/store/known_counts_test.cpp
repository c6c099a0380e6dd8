// Which counts a c2c source measured: stored as the names of the unknown ones, and shown with
// those (and every sum over them) unknown rather than 0.
#include "collector/store/known_counts.hpp"

#include <gtest/gtest.h>
#include <stdexcept>

namespace hitmap::store {
namespace {

constexpr KnownCounts kImported = KnownCounts::none();

TEST(KnownCounts, NamesOfTheUnknownRoundTrip) {
    EXPECT_EQ(unknown_names(KnownCounts{}), "");
    EXPECT_EQ(known_from_unknown_names(""), KnownCounts{});
    EXPECT_EQ(unknown_names(kImported), "store_hitm,store_shared,invalidations,stall_cycles,"
                                        "traced_ops,dropped_records,cpu_migrations");
    EXPECT_EQ(known_from_unknown_names(unknown_names(kImported)), kImported);
    const KnownCounts sampled{.store_hitm = false, .cpu_migrations = false};
    EXPECT_EQ(unknown_names(sampled), "store_hitm,cpu_migrations");
    EXPECT_EQ(known_from_unknown_names("cpu_migrations,store_hitm"), sampled);
}

TEST(KnownCounts, ANameOfNoCountIsRefused) {
    EXPECT_THROW(known_from_unknown_names("store_hitm,hitm"), std::runtime_error);
    EXPECT_THROW(known_from_unknown_names("store_hitm,"), std::runtime_error);
}

TEST(KnownCounts, ShownCountsLeaveTheUnknownAndTheirSumsUnknown) {
    c2c::ClassCounts c;
    c.l1_hit = 1;
    c.load_hitm = 2;
    c.store_hitm = 3;
    c.clean_forward = 4;
    c.store_shared = 5;
    c.cold = 6;
    c.invalidations = 7;
    c.loads = 8;
    c.stores = 9;
    c.stall_cycles = 10.5;

    const ShownCounts all = shown_counts(c, {});
    EXPECT_EQ(all.store_hitm, 3u);
    EXPECT_EQ(all.store_shared, 5u);
    EXPECT_EQ(all.invalidations, 7u);
    EXPECT_EQ(all.hitm, 5u);
    EXPECT_EQ(all.transfers, 14u);
    EXPECT_EQ(all.stall_cycles, 10.5);

    // A perf c2c import's zeros where perf has no figure: HITM is perf's Tot Hitm (loads).
    c.store_hitm = c.store_shared = c.invalidations = 0;
    c.stall_cycles = 0;
    const ShownCounts imported = shown_counts(c, kImported);
    EXPECT_EQ(imported.store_hitm, std::nullopt);
    EXPECT_EQ(imported.store_shared, std::nullopt);
    EXPECT_EQ(imported.invalidations, std::nullopt);
    EXPECT_EQ(imported.stall_cycles, std::nullopt);
    EXPECT_EQ(imported.transfers, std::nullopt);
    EXPECT_EQ(imported.hitm, 2u);
    EXPECT_EQ(imported.load_hitm, 2u);
    EXPECT_EQ(imported.clean_forward, 4u);
    EXPECT_EQ(imported.loads, 8u);
    EXPECT_EQ(imported.stores, 9u);

    // Either store class unknown leaves the transfers unknown.
    EXPECT_EQ(shown_counts(c, {.store_shared = false}).transfers, std::nullopt);
    EXPECT_EQ(shown_counts(c, {.store_hitm = false}).transfers, std::nullopt);
    EXPECT_EQ(shown_counts(c, {.stall_cycles = false}).transfers, 6u);
}

} // namespace
} // namespace hitmap::store
