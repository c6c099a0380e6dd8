// Generic composition (engine/layout/composition.hpp) on toy types registered through a plugin's
// registrar: toy_outer embeds toy_mid twice (left, right), which embeds toy_leaf twice (x, y),
// so the leaf sits at two depths below the outer struct.
#include "engine/layout/composition.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_registry.hpp"
#include "engine/plugin/plugin_api.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace hitmap::engine {
namespace {

struct Toys {
    const StructType* leaf = nullptr;
    const StructType* mid = nullptr;
    const StructType* outer = nullptr;
    const Composition* mid_of_leaf = nullptr;
    const Composition* outer_of_mid = nullptr;
    std::vector<std::string> added; // the registrar's account
};

// `own_head` then the member's fields under each path, then `own_tail`; sizes alike.
StructType embedding(std::string name, std::vector<std::string> own_head,
                     std::vector<std::string> own_tail, const StructType& member,
                     const std::vector<std::string>& paths) {
    StructType t{std::move(name), std::move(own_head)};
    for (const std::string& p : paths)
        for (const std::string& f : member.fields)
            t.fields.push_back(fmt::format("{}.{}", p, f));
    t.fields.insert(t.fields.end(), own_tail.begin(), own_tail.end());
    return t;
}

const Toys& toys() {
    static const Toys t = [] {
        Toys out;
        PluginRegistrar registrar;
        out.leaf = &registrar.struct_type(StructType{"toy_leaf", {"n", "lim"}}, {8, 8});
        registrar.layout(
            Layout{out.leaf, "a1", 16, 8, {FieldPlacement{0, 8}, FieldPlacement{8, 8}}});

        // toy_mid: int head; toy_leaf x; CACHELINE_PADDING; toy_leaf y; long tail.
        StructType mid = embedding("toy_mid", {"head"}, {"tail"}, *out.leaf, {"x", "y"});
        out.mid = &registrar.struct_type(mid, {4, 8, 8, 8, 8, 8});
        registrar.composition({out.mid,
                               out.leaf,
                               {"x", "y"},
                               1,
                               {{"b1",
                                 "a1",
                                 {{ShapeMember::block, "head", 8, 8, {{0, 0}}},
                                  {ShapeMember::embedded, "x", 0, 0, {}, 0},
                                  {ShapeMember::line_padding, "padding", 0, 64},
                                  {ShapeMember::embedded, "y", 0, 0, {}, 1},
                                  {ShapeMember::block, "tail", 8, 8, {{5, 0}}}}}}});

        // toy_outer: long id; toy_mid left; toy_mid right.
        StructType outer = embedding("toy_outer", {"id"}, {}, mid, {"left", "right"});
        std::vector<std::uint32_t> sizes{8};
        for (int copy = 0; copy < 2; ++copy)
            sizes.insert(sizes.end(), {4, 8, 8, 8, 8, 8});
        out.outer = &registrar.struct_type(outer, sizes);
        registrar.composition({out.outer,
                               out.mid,
                               {"left", "right"},
                               1,
                               {{"c1",
                                 "b1",
                                 {{ShapeMember::block, "id", 8, 8, {{0, 0}}},
                                  {ShapeMember::embedded, "left", 0, 0, {}, 0},
                                  {ShapeMember::embedded, "right", 0, 0, {}, 1}}}}});
        out.mid_of_leaf = composition_of(*out.mid);
        out.outer_of_mid = composition_of(*out.outer);
        out.added = registrar.added();
        return out;
    }();
    return t;
}

std::uint32_t offset_of(const Layout& l, std::string_view field) {
    return l.at(*l.type->field_id(field)).offset;
}

// A user leaf layout no registry knows: each field on a line of its own half.
Layout wide_leaf() {
    return Layout{toys().leaf, "a-wide", 64, 64, {FieldPlacement{0, 8}, FieldPlacement{32, 8}}};
}

TEST(Composition, APluginRegistersItsCompositions) {
    const Toys& t = toys();
    ASSERT_NE(t.mid_of_leaf, nullptr);
    ASSERT_NE(t.outer_of_mid, nullptr);
    EXPECT_EQ(t.outer_of_mid->member, t.mid);
    EXPECT_EQ(t.added,
              (std::vector<std::string>{"struct toy_leaf", "layout toy_leaf a1", "struct toy_mid",
                                        "composition toy_mid of toy_leaf", "struct toy_outer",
                                        "composition toy_outer of toy_mid"}));
}

TEST(Composition, ComposesAtTwoDepths) {
    const Toys& t = toys();
    const Layout mid = compose(*t.mid_of_leaf, "b1", *find_layout("toy_leaf", "a1"));
    EXPECT_EQ(mid.version, "b1");
    EXPECT_EQ(mid.size, 128u); // the padding aligns the struct to its line
    EXPECT_EQ(mid.align, 64u);
    EXPECT_EQ(offset_of(mid, "head"), 0u);
    EXPECT_EQ(mid.at(*t.mid->field_id("head")).size, 4u);
    EXPECT_EQ(offset_of(mid, "x.lim"), 16u);
    EXPECT_EQ(offset_of(mid, "y.n"), 64u);
    EXPECT_EQ(offset_of(mid, "tail"), 80u);

    const Layout outer = compose(*t.outer_of_mid, "c1", mid);
    EXPECT_EQ(outer.version, "c1");
    EXPECT_EQ(outer.size, 320u);
    EXPECT_EQ(offset_of(outer, "id"), 0u);
    EXPECT_EQ(offset_of(outer, "left.x.n"), 72u);
    EXPECT_EQ(offset_of(outer, "right.head"), 192u);
    EXPECT_EQ(offset_of(outer, "right.y.lim"), 264u);
    EXPECT_EQ(shape_of(outer), "c1");
}

TEST(Composition, NamesEveryCopyOfTheLeaf) {
    const Toys& t = toys();
    EXPECT_EQ(embedded_copies(*t.outer, *t.leaf), 4u);
    EXPECT_EQ(embedded_copies(*t.outer, *t.mid), 2u);
    EXPECT_EQ(embedded_copies(*t.leaf, *t.outer), 0u);
    ASSERT_EQ(embedding_chain(*t.outer, *t.leaf).size(), 2u);
    const auto right_x_lim = embedded_field(*t.outer, *t.leaf, *t.outer->field_id("right.x.lim"));
    ASSERT_TRUE(right_x_lim.has_value());
    EXPECT_EQ(right_x_lim->copy, 2u); // left.x, left.y, right.x, right.y
    EXPECT_EQ(right_x_lim->field, *t.leaf->field_id("lim"));
    EXPECT_FALSE(embedded_field(*t.outer, *t.leaf, *t.outer->field_id("id")).has_value());
    EXPECT_FALSE(embedded_field(*t.outer, *t.leaf, *t.outer->field_id("left.tail")).has_value());
    ASSERT_EQ(containers_of(*t.leaf).size(), 1u);
    EXPECT_EQ(containers_of(*t.leaf).front()->container, t.mid);
}

TEST(Composition, RecoversAKnownLeafThroughTheMiddle) {
    const Toys& t = toys();
    const Layout& a1 = *find_layout("toy_leaf", "a1");
    const Layout mid = compose(*t.mid_of_leaf, "b1", a1);
    const Layout outer = compose(*t.outer_of_mid, "c1", mid);
    EXPECT_TRUE(same_placement(embedded_layout(outer, *t.mid), mid));
    const Layout leaf = embedded_layout(outer, *t.leaf);
    EXPECT_EQ(leaf.version, "a1");
    EXPECT_TRUE(same_placement(leaf, a1));
    EXPECT_TRUE(holds_member_layout(outer, a1));
    EXPECT_FALSE(holds_member_layout(outer, wide_leaf()));
}

TEST(Composition, RecoversAUserLeafFromOffsets) {
    const Toys& t = toys();
    const Layout mid = compose(*t.mid_of_leaf, "b1", wide_leaf());
    EXPECT_EQ(mid.version, "b1 with toy_leaf a-wide");
    const Layout outer = compose(*t.outer_of_mid, "c1", mid);
    EXPECT_EQ(outer.version, "c1 with toy_mid b1 with toy_leaf a-wide");
    EXPECT_EQ(shape_of(outer), "c1");
    EXPECT_EQ(offset_of(outer, "right.y.lim"), 320u + 128 + 32);

    const Layout leaf = embedded_layout(outer, *t.leaf);
    EXPECT_EQ(leaf.version, "a-wide");
    EXPECT_EQ(leaf.size, 64u);
    EXPECT_EQ(leaf.align, 64u);
    EXPECT_TRUE(same_placement(leaf, wide_leaf()));
    EXPECT_TRUE(holds_member_layout(outer, wide_leaf()));
}

TEST(Composition, PlacesAMemberOverrideInTheRecordedShape) {
    const Toys& t = toys();
    const Layout recorded = compose(*t.outer_of_mid, "c1",
                                    compose(*t.mid_of_leaf, "b1", *find_layout("toy_leaf", "a1")));
    const Layout wide_mid = compose(*t.mid_of_leaf, "b1", wide_leaf());
    const auto under = layout_under(recorded, std::map<std::string, Layout>{{"toy_mid", wide_mid}});
    ASSERT_TRUE(under.has_value());
    EXPECT_EQ(under->version, "c1 with toy_mid b1 with toy_leaf a-wide");
    EXPECT_THROW(layout_under(recorded, std::map<std::string, Layout>{{"toy_mid", wide_mid},
                                                                      {"toy_outer", recorded}}),
                 LayoutError);
    Layout user = recorded;
    user.version = "mine.json";
    EXPECT_FALSE(shape_of(user).has_value());
    EXPECT_THROW(embedded_layout(user, *t.leaf), LayoutError);
}

TEST(Composition, RefusesFieldsThatAreNotTheMembers) {
    const Toys& t = toys();
    const StructType& odd = add_struct_type(StructType{"toy_odd", {"x.n", "x.limit"}}, {8, 8});
    EXPECT_THROW(add_composition({&odd, t.leaf, {"x"}, 0, {{"o1", "a1", {}}}}), LayoutError);
    EXPECT_THROW(add_composition({t.mid, t.leaf, {"x", "y"}, 1, t.mid_of_leaf->shapes}),
                 LayoutError); // composed already
}

} // namespace
} // namespace hitmap::engine
