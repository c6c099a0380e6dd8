// Layouts built line by line, their stable names and JSON, and where a run's copies of a
// struct are found (page_counters inside mem_cgroup, under any page_counter layout).
#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "collector/layoutopt/struct_copies.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <gtest/gtest.h>

namespace hitmap::layoutopt {
namespace {

using namespace engine::pc;

const std::vector<std::vector<engine::FieldId>> kLines{
    {usage, watermark}, {min, low, high, max, parent}, {emin, elow, failcnt}};

TEST(LineLayout, EachGroupStartsItsOwnLine) {
    const engine::Layout l = layout_from_lines(engine::page_counter_type(), kLines, "x");
    EXPECT_EQ(l.size, 192u);
    EXPECT_EQ(l.align, 64u);
    EXPECT_EQ(l.at(usage).offset, 0u);
    EXPECT_EQ(l.at(watermark).offset, 8u);
    EXPECT_EQ(l.at(min).offset, 64u);
    EXPECT_EQ(l.at(parent).offset, 96u);
    EXPECT_EQ(l.at(failcnt).offset, 144u);
    EXPECT_FALSE(l.has(min_usage));
    EXPECT_EQ(lines_of(l), kLines);
}

TEST(LineLayout, NineLongsDoNotFitALine) {
    EXPECT_THROW(layout_from_lines(engine::page_counter_type(),
                                   {{usage, min, low, high, max, emin, elow, failcnt, parent}},
                                   "x"),
                 OptimizeError);
}

TEST(LineLayout, TheVersionNamesThePlacement) {
    const engine::Layout a = layout_from_lines(engine::page_counter_type(), kLines, "a");
    const engine::Layout b = layout_from_lines(engine::page_counter_type(), kLines, "b");
    EXPECT_EQ(placement_version(a), placement_version(b));
    EXPECT_TRUE(placement_version(a).starts_with("opt-"));
    EXPECT_EQ(placement_version(a).size(), 12u);
    auto swapped = kLines;
    std::swap(swapped[1][0], swapped[1][1]); // low before min
    EXPECT_NE(placement_version(layout_from_lines(engine::page_counter_type(), swapped, "a")),
              placement_version(a));
}

TEST(LineLayout, JsonReadsBackEqual) {
    engine::Layout l = layout_from_lines(engine::page_counter_type(), kLines, "x");
    l.version = placement_version(l);
    const engine::Layout back = engine::parse_layout_json(engine::layout_json(l), "test");
    EXPECT_EQ(back.version, l.version);
    EXPECT_EQ(back.size, l.size);
    EXPECT_EQ(back.align, l.align);
    for (engine::FieldId f = 0; f < kCount; ++f) {
        ASSERT_EQ(back.has(f), l.has(f)) << f;
        if (l.has(f)) {
            EXPECT_EQ(back.at(f).offset, l.at(f).offset) << f;
        }
    }
}

TEST(StructCopies, FindsThePageCountersOfEveryMemCgroup) {
    const engine::Layout& memcg = *engine::find_builtin_layout("mem_cgroup", "v6.0");
    const std::vector<engine::ObjectInfo> objects{
        {0, "top", memcg, 0},
        {1, "stock/0", *engine::find_builtin_layout("memcg_stock_pcp", "v5.10"), 0},
        {2, "top/mid", memcg, 0}};
    const StructCopies copies(engine::page_counter_type(), objects);
    EXPECT_EQ(copies.count(), 2 * engine::kCounters);
    EXPECT_EQ(copies.current().version, "v6.0");
    const auto swap_high = copies.field_of(2, engine::counter_field(engine::Counter::swap, high));
    ASSERT_TRUE(swap_high);
    EXPECT_EQ(swap_high->field, high);
    EXPECT_EQ(swap_high->copy, engine::kCounters + 1);
    EXPECT_FALSE(copies.field_of(0, engine::mcg::css_parent));
    EXPECT_FALSE(copies.field_of(1, 0));
}

TEST(StructCopies, RecoversAUserPageCounterLayoutFromItsMemCgroup) {
    // A run of a proposal (`run --layout page_counter=FILE.json`) names it only in the
    // mem_cgroup's version; the offsets give it back.
    engine::Layout mine = layout_from_lines(engine::page_counter_type(), kLines, "x");
    std::uint32_t at = 160;
    for (const engine::FieldId f : {min_usage, children_min_usage, low_usage, children_low_usage}) {
        mine.placement[f] = engine::FieldPlacement{at, 8};
        at += 8;
    }
    engine::validate_layout(mine);
    mine.version = placement_version(mine);
    const engine::Layout memcg = engine::compose_mem_cgroup("v6.0", mine);
    const StructCopies copies(engine::page_counter_type(), {{0, "top", memcg, 0}});
    EXPECT_EQ(copies.current().version, mine.version);
    EXPECT_EQ(copies.current().size, 192u);
    EXPECT_EQ(copies.current().align, 64u);
    for (engine::FieldId f = 0; f < kCount; ++f) {
        ASSERT_EQ(copies.current().has(f), mine.has(f)) << f;
        if (mine.has(f)) {
            EXPECT_EQ(copies.current().at(f).offset, mine.at(f).offset) << f;
        }
    }
}

TEST(StructCopies, ARunWithoutTheStructIsRefused) {
    const std::vector<engine::ObjectInfo> objects{
        {0, "stock/0", *engine::find_builtin_layout("memcg_stock_pcp", "v5.10"), 0}};
    EXPECT_THROW(StructCopies(engine::page_counter_type(), objects), OptimizeError);
}

} // namespace
} // namespace hitmap::layoutopt
