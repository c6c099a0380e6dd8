// Built-in layouts against reference/memcg.md §1.1-1.3 (page_counter) and §2.2 (memcg_stock_pcp).
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace hitmap::engine {
namespace {

using ExpectedFields =
    std::map<std::string, std::pair<std::uint32_t, std::uint32_t>>; // offset, size

const Layout& builtin(std::string_view s, std::string_view v) {
    const Layout* l = find_builtin_layout(s, v);
    if (!l)
        throw std::runtime_error("missing built-in layout");
    return *l;
}

// Every field of the type is either placed exactly as expected or absent from the layout.
void expect_layout(const Layout& layout, const ExpectedFields& expected) {
    const StructType& type = *layout.type;
    std::size_t placed = 0;
    for (FieldId f = 0; f < type.fields.size(); ++f) {
        const std::string& name = type.fields[f];
        const auto it = expected.find(name);
        if (it == expected.end()) {
            EXPECT_FALSE(layout.has(f)) << layout.version << ": " << name << " should be absent";
            continue;
        }
        ASSERT_TRUE(layout.has(f)) << layout.version << ": " << name << " missing";
        EXPECT_EQ(layout.at(f).offset, it->second.first) << layout.version << ": " << name;
        EXPECT_EQ(layout.at(f).size, it->second.second) << layout.version << ": " << name;
        ++placed;
    }
    EXPECT_EQ(placed, expected.size()) << "expected fields that the type does not name";
}

// Names of the fields that lie (wholly) on the same 64-byte line as usage, object at phase 0.
std::set<std::string> fields_on_usage_line(const Layout& layout) {
    const std::uint32_t line = layout.at(pc::usage).offset / 64;
    std::set<std::string> names;
    for (FieldId f = 0; f < layout.placement.size(); ++f)
        if (layout.has(f) && layout.at(f).offset / 64 == line)
            names.insert(std::string(layout.field_name(f)));
    return names;
}

TEST(BuiltinLayouts, PageCounterTypeFieldIdsMatchEnum) {
    const StructType& t = page_counter_type();
    ASSERT_EQ(t.fields.size(), static_cast<std::size_t>(pc::kCount));
    EXPECT_EQ(t.field_id("usage"), pc::usage);
    EXPECT_EQ(t.field_id("min_usage"), pc::min_usage);
    EXPECT_EQ(t.field_id("children_min_usage"), pc::children_min_usage);
    EXPECT_EQ(t.field_id("local_watermark"), pc::local_watermark);
    EXPECT_EQ(t.field_id("track_failcnt"), pc::track_failcnt);
    EXPECT_EQ(t.field_id("parent"), pc::parent);
    EXPECT_FALSE(t.field_id("no_such_field").has_value());
    EXPECT_EQ(find_struct_type("page_counter"), &t);
    EXPECT_EQ(find_struct_type("memcg_stock_pcp"), &memcg_stock_type());
    EXPECT_EQ(find_struct_type("mem_cgroup"), &mem_cgroup_type());
    EXPECT_EQ(find_struct_type("task_struct"), nullptr);
}

TEST(BuiltinLayouts, NaturalFieldSizes) {
    EXPECT_EQ(natural_field_size(page_counter_type(), pc::usage), 8u);
    EXPECT_EQ(natural_field_size(page_counter_type(), pc::parent), 8u);
    EXPECT_EQ(natural_field_size(page_counter_type(), pc::protection_support), 1u);
    EXPECT_EQ(natural_field_size(page_counter_type(), pc::track_failcnt), 1u);
    EXPECT_EQ(natural_field_size(memcg_stock_type(), stock::cached), 8u);
    EXPECT_EQ(natural_field_size(memcg_stock_type(), stock::nr_pages), 4u);
}

TEST(BuiltinLayouts, PageCounterV60) {
    const Layout& l = builtin("page_counter", "v6.0");
    EXPECT_EQ(l.type, &page_counter_type());
    EXPECT_EQ(l.size, 112u);
    EXPECT_EQ(l.align, 8u);
    expect_layout(l, {{"usage", {0, 8}},
                      {"min", {8, 8}},
                      {"low", {16, 8}},
                      {"high", {24, 8}},
                      {"max", {32, 8}},
                      {"emin", {40, 8}},
                      {"min_usage", {48, 8}},
                      {"children_min_usage", {56, 8}},
                      {"elow", {64, 8}},
                      {"low_usage", {72, 8}},
                      {"children_low_usage", {80, 8}},
                      {"watermark", {88, 8}},
                      {"failcnt", {96, 8}},
                      {"parent", {104, 8}}});
}

TEST(BuiltinLayouts, PageCounterV61) {
    const Layout& l = builtin("page_counter", "v6.1");
    EXPECT_EQ(l.size, 192u);
    EXPECT_EQ(l.align, 64u);
    expect_layout(l, {{"usage", {0, 8}},
                      {"emin", {64, 8}},
                      {"min_usage", {72, 8}},
                      {"children_min_usage", {80, 8}},
                      {"elow", {88, 8}},
                      {"low_usage", {96, 8}},
                      {"children_low_usage", {104, 8}},
                      {"watermark", {112, 8}},
                      {"failcnt", {120, 8}},
                      {"min", {128, 8}},
                      {"low", {136, 8}},
                      {"high", {144, 8}},
                      {"max", {152, 8}},
                      {"parent", {160, 8}}});
}

TEST(BuiltinLayouts, PageCounterV615) {
    const Layout& l = builtin("page_counter", "v6.15");
    EXPECT_EQ(l.size, 192u);
    EXPECT_EQ(l.align, 64u);
    expect_layout(l, {{"usage", {0, 8}},
                      {"failcnt", {8, 8}},
                      {"emin", {64, 8}},
                      {"min_usage", {72, 8}},
                      {"children_min_usage", {80, 8}},
                      {"elow", {88, 8}},
                      {"low_usage", {96, 8}},
                      {"children_low_usage", {104, 8}},
                      {"watermark", {112, 8}},
                      {"local_watermark", {120, 8}},
                      {"protection_support", {128, 1}},
                      {"track_failcnt", {129, 1}},
                      {"min", {136, 8}},
                      {"low", {144, 8}},
                      {"high", {152, 8}},
                      {"max", {160, 8}},
                      {"parent", {168, 8}}});
}

TEST(BuiltinLayouts, MemcgStockV510) {
    const Layout& l = builtin("memcg_stock_pcp", "v5.10");
    EXPECT_EQ(l.type, &memcg_stock_type());
    EXPECT_EQ(l.size, 72u);
    EXPECT_EQ(l.align, 8u);
    expect_layout(l, {{"cached", {0, 8}},
                      {"nr_pages", {8, 4}},
                      {"cached_objcg", {16, 8}},
                      {"nr_bytes", {24, 4}}});
}

TEST(BuiltinLayouts, FieldsSharingUsageLine) {
    EXPECT_EQ(fields_on_usage_line(builtin("page_counter", "v6.0")),
              (std::set<std::string>{"usage", "min", "low", "high", "max", "emin", "min_usage",
                                     "children_min_usage"}));
    EXPECT_EQ(fields_on_usage_line(builtin("page_counter", "v6.1")),
              (std::set<std::string>{"usage"}));
    EXPECT_EQ(fields_on_usage_line(builtin("page_counter", "v6.15")),
              (std::set<std::string>{"usage", "failcnt"}));
}

// Inside struct mem_cgroup the v6.0 page_counter starts at +0xd0 (Feng Tang's measurement in
// the seed-001 thread), so css.parent and id share memory.usage's line with the limits; the
// padded v6.1 page_counter starts on a line of its own, in the v6.0 struct as in v6.1's.
TEST(MemCgroupLayouts, WhatSharesTheMemoryUsageLine) {
    const auto on_usage_line = [](const Layout& l) {
        const std::uint32_t line = l.at(counter_field(Counter::memory, pc::usage)).offset / 64;
        std::set<std::string> names;
        for (FieldId f = 0; f < l.placement.size(); ++f)
            if (l.has(f) && l.at(f).offset / 64 == line)
                names.insert(std::string(l.field_name(f)));
        return names;
    };
    const Layout& v60 = builtin("mem_cgroup", "v6.0");
    EXPECT_EQ(v60.at(counter_field(Counter::memory, pc::usage)).offset, 0xd0u);
    // Shakeel Butt's sizes in the patch mail: 4032 for 6.0-rc1, 4416 with the padded counter.
    EXPECT_EQ(v60.size, 4032u);
    EXPECT_EQ(compose_mem_cgroup("v6.0", builtin("page_counter", "v6.1")).size, 4416u);
    EXPECT_EQ(on_usage_line(v60),
              (std::set<std::string>{"css.parent", "id", "memory.usage", "memory.min", "memory.low",
                                     "memory.high", "memory.max", "memory.emin"}));
    const Layout p2 = compose_mem_cgroup("v6.0", builtin("page_counter", "v6.1"));
    EXPECT_EQ(p2.version, "v6.0 with page_counter v6.1");
    EXPECT_EQ(p2.at(counter_field(Counter::memory, pc::usage)).offset, 256u);
    EXPECT_EQ(on_usage_line(p2), (std::set<std::string>{"memory.usage"}));
    EXPECT_EQ(on_usage_line(builtin("mem_cgroup", "v6.1")),
              (std::set<std::string>{"memory.usage"}));
    // The rest of the struct moves with the larger counters, as the compiler would move it.
    EXPECT_EQ(p2.at(counter_field(Counter::swap, pc::usage)).offset, 256u + 192u);
    EXPECT_GT(p2.at(mcg::socket_pressure).offset, v60.at(mcg::socket_pressure).offset);
}

// --layout page_counter=... on a mem_cgroup run recomposes its shape; both at once is refused.
TEST(MemCgroupLayouts, PageCounterOverrideIsPlacedInTheShape) {
    const Layout& v60 = builtin("mem_cgroup", "v6.0");
    std::map<std::string, Layout> overrides{{"page_counter", builtin("page_counter", "v6.1")}};
    const auto under = layout_under(v60, overrides);
    ASSERT_TRUE(under.has_value());
    EXPECT_EQ(under->version, "v6.0 with page_counter v6.1");
    EXPECT_EQ(shape_of(*under), "v6.0");
    overrides.emplace("mem_cgroup", builtin("mem_cgroup", "v6.1"));
    EXPECT_THROW(layout_under(v60, overrides), LayoutError);
    EXPECT_FALSE(layout_under(v60, std::map<std::string, Layout>{}).has_value());
    Layout user = v60;
    user.version = "my-try.json";
    EXPECT_FALSE(shape_of(user).has_value());
    EXPECT_THROW(
        layout_under(
            user, std::map<std::string, Layout>{{"page_counter", builtin("page_counter", "v6.1")}}),
        LayoutError);
}

TEST(BuiltinLayouts, AllBuiltinsPassValidation) {
    std::set<std::pair<std::string, std::string>> names;
    for (const Layout& l : builtin_layouts()) {
        EXPECT_NO_THROW(validate_layout(l)) << l.type->name << " " << l.version;
        EXPECT_EQ(l.placement.size(), l.type->fields.size());
        names.insert({l.type->name, l.version});
    }
    EXPECT_EQ(names,
              (std::set<std::pair<std::string, std::string>>{{"page_counter", "v6.0"},
                                                             {"page_counter", "v6.1"},
                                                             {"page_counter", "v6.15"},
                                                             {"mem_cgroup", "v5.12"},
                                                             {"mem_cgroup", "v6.0"},
                                                             {"mem_cgroup", "v6.1"},
                                                             {"mem_cgroup", "v6.15"},
                                                             {"memcg_stock_pcp", "v5.10"},
                                                             {"memcg_stock_pcp", "v5.13+p2"},
                                                             {"memcg_stock_pcp", "v5.14"},
                                                             {"obj_cgroup", "v5.10"},
                                                             {"objcgs", "8"},
                                                             {"objcgs", "128"},
                                                             {"page", "v5.11"},
                                                             {"mem_cgroup_per_node", "v5.12"},
                                                             {"slab_stats_cpu", "v5.13"},
                                                             {"hackbench_pipe", "model"},
                                                             {"memcg_percpu_stats", "v6.0"},
                                                             {"memcg_stats_global", "v6.0"},
                                                             {"res_counter", "v2.6.31"},
                                                             {"cgroup_subsys_state", "v2.6.31"},
                                                             {"memcg_vmstats", "v6.5"},
                                                             {"memcg_vmstats", "v6.6"},
                                                             {"memcg_flush_globals", "v6.5"}}));
    EXPECT_EQ(find_builtin_layout("page_counter", "v5.10"), nullptr);
    EXPECT_EQ(find_builtin_layout("memcg_stock_pcp", "v6.1"), nullptr);
}

} // namespace
} // namespace hitmap::engine
