// What a plugin's registrar adds, and what it refuses (engine/plugin/plugin_api.hpp). Each
// test runs in a process of its own (gtest_discover_tests PRE_TEST), so the registries start
// with the built-ins only.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/layout_registry.hpp"
#include "engine/plugin/plugin_api.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Layout two_longs(const StructType& t, std::string version, std::uint32_t second_at) {
    Layout l{&t, std::move(version), (second_at + 15) / 8 * 8, 8, {}};
    l.placement = {FieldPlacement{0, 8}, FieldPlacement{second_at, 8}};
    return l;
}

TEST(PluginRegistry, TypesAndLayoutsAreFoundLikeTheBuiltIns) {
    PluginRegistrar r;
    const StructType& t = r.struct_type({"my_struct", {"hot", "cold"}}, {8, 8});
    r.layout(two_longs(t, "packed", 8));
    r.layout(two_longs(t, "padded", 64));
    EXPECT_EQ(find_struct_type("my_struct"), &t);
    EXPECT_EQ(natural_field_size(t, 1), 8u);
    ASSERT_NE(find_layout("my_struct", "padded"), nullptr);
    EXPECT_EQ(find_layout("my_struct", "padded")->at(1).offset, 64u);
    EXPECT_EQ(resolve_layout("my_struct", "packed").size, 16u);
    EXPECT_EQ(known_layouts().back()->version, "padded");
    EXPECT_EQ(known_layouts().size(), builtin_layouts().size() + 2);
    EXPECT_THAT(r.added(), ElementsAre("struct my_struct", "layout my_struct packed",
                                       "layout my_struct padded"));
}

TEST(PluginRegistry, ABadLayoutOrATakenNameIsRefused) {
    PluginRegistrar r;
    EXPECT_THROW(r.struct_type({"page_counter", {"x"}}, {8}), LayoutError);
    EXPECT_THROW(r.struct_type({"sizes", {"a", "b"}}, {8}), LayoutError);
    const StructType& t = r.struct_type({"mine", {"a", "b"}}, {8, 8});
    try {
        r.layout(two_longs(t, "misaligned", 4)); // b at 4 of a 16-byte struct
        FAIL() << "a misaligned field was accepted";
    } catch (const LayoutError& e) {
        EXPECT_THAT(e.what(), HasSubstr("not 8-byte aligned"));
    }
    r.layout(two_longs(t, "v1", 8));
    EXPECT_THROW(r.layout(two_longs(t, "v1", 16)), LayoutError); // the version exists
    // Only the plugin's own types: built-in structs keep their kernel layouts.
    Layout pc = *find_builtin_layout("page_counter", "v6.0");
    pc.version = "mine";
    EXPECT_THROW(r.layout(pc), LayoutError);
}

TEST(PluginRegistry, SitesAreNamedAndAtMostEight) {
    PluginRegistrar r;
    const Site first = r.site("my_fast_path");
    EXPECT_EQ(site_name(static_cast<std::uint16_t>(first)), "my_fast_path");
    EXPECT_EQ(first, Site::plugin_0);
    EXPECT_THROW(r.site("my_fast_path"), std::invalid_argument);
    EXPECT_THROW(r.site("page_counter_charge"), std::invalid_argument); // a built-in's name
    for (int i = 1; i < 8; ++i)
        r.site("s" + std::to_string(i));
    EXPECT_THROW(r.site("one_too_many"), std::length_error);
}

TEST(PluginRegistry, AWorkloadNameIsTakenOnce) {
    PluginRegistrar r;
    EXPECT_THROW(r.workload(find_workload("page-counter-charge")), WorkloadError);
}

} // namespace
} // namespace hitmap::engine
