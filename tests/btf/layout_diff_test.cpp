// Two layouts of one struct compared line by line: the fields that moved, and those that left
// or joined the line of the field every charge writes.
#include "collector/btf/layout_diff.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::btf {
namespace {

using ::testing::HasSubstr;
using Names = std::vector<std::string>;

const engine::Layout& builtin(const char* s, const char* v) {
    return *engine::find_builtin_layout(s, v);
}

Names moved(const LayoutDiff& d) {
    Names out;
    for (const FieldChange& c : d.fields)
        if (LayoutDiff::moved(c))
            out.push_back(c.field);
    return out;
}

TEST(LayoutDiff, V60ToV615MovesTheLimitsOffTheUsageLine) {
    const LayoutDiff d =
        diff_layouts(builtin("page_counter", "v6.0"), builtin("page_counter", "v6.15"));
    ASSERT_EQ(d.hot.size(), 1u);
    const HotLine& h = d.hot[0];
    EXPECT_EQ(h.field, "usage");
    EXPECT_EQ(h.left,
              (Names{"min", "low", "high", "max", "emin", "min_usage", "children_min_usage"}));
    EXPECT_EQ(h.joined, (Names{"failcnt"}));
    EXPECT_EQ(h.b_sharers, (Names{"failcnt"}));
    // elow..watermark stay on line 1; failcnt (96 -> 8) and parent (104 -> 168) move too.
    EXPECT_EQ(moved(d), (Names{"min", "low", "high", "max", "emin", "min_usage",
                               "children_min_usage", "failcnt", "parent"}));
    const std::string text = format_diff_text(d);
    EXPECT_THAT(text, HasSubstr("moved off usage's line: min, low, high, max, emin, min_usage, "
                                "children_min_usage\n"));
    EXPECT_THAT(text, HasSubstr("moved onto usage's line: failcnt\n"));
    EXPECT_THAT(text, HasSubstr("9 fields moved to another line, 0 only in A, 3 only in B"));
    const auto json = diff_json(d);
    EXPECT_EQ(json["hot_lines"][0]["left"].size(), 7u);
    EXPECT_EQ(json["fields"][0]["name"], "usage");
    EXPECT_EQ(json["fields"][0]["a"]["line"], 0);
    EXPECT_EQ(json["fields"][12]["name"], "local_watermark");
    EXPECT_TRUE(json["fields"][12]["a"].is_null());
    EXPECT_EQ(json["fields"][12]["b"]["offset"], 120);
}

TEST(LayoutDiff, IdenticalLayoutsMoveNothing) {
    const engine::Layout& v61 = builtin("page_counter", "v6.1");
    const LayoutDiff d = diff_layouts(v61, v61);
    EXPECT_TRUE(moved(d).empty());
    EXPECT_TRUE(d.hot[0].left.empty());
    EXPECT_TRUE(d.hot[0].joined.empty());
}

TEST(LayoutDiff, MemCgroupUsesMemoryUsageAsItsHotField) {
    const LayoutDiff d = diff_layouts(builtin("mem_cgroup", "v6.0"), builtin("mem_cgroup", "v6.1"));
    ASSERT_EQ(d.hot.size(), 1u);
    EXPECT_EQ(d.hot[0].field, "memory.usage");
    // v6.0: css.parent and id share memory.usage's line (fidelity.md §2 row 1).
    EXPECT_THAT(d.hot[0].a_sharers, ::testing::Contains("css.parent"));
}

TEST(LayoutDiff, LayoutsOfDifferentStructsAreRefused) {
    EXPECT_THROW(diff_layouts(builtin("page_counter", "v6.0"), builtin("res_counter", "v2.6.31")),
                 engine::LayoutError);
}

} // namespace
} // namespace hitmap::btf
