#include "collector/c2c/address_map.hpp"
#include "collector/c2c/errors.hpp"
#include "tests/c2c/trace_builder.hpp"

#include <gtest/gtest.h>

namespace hitmap::c2c {
namespace {

using namespace testing;

TEST(AddressMap, EachObjectGetsItsOwnPageAlignedRegionPlusItsPhase) {
    // Registry order differs from id order: regions still go by id.
    const std::vector<engine::ObjectInfo> objects{{1, "b", padded(), 8}, {0, "a", packed(), 48}};
    const AddressMap map(objects, 64, std::nullopt, {});
    // a: 24 bytes at phase 48 -> lines 0 and 1; b: 192 bytes at phase 8 -> lines 0..3.
    ASSERT_EQ(map.line_count(), 6u);
    EXPECT_EQ(map.line(0).object, 0u);
    EXPECT_EQ(map.line(0).address % AddressMap::kRegionAlign, 0u);
    EXPECT_EQ(map.line(1).index, 1u);
    EXPECT_EQ(map.line(2).object, 1u);
    EXPECT_EQ(map.line(2).index, 0u);
    EXPECT_EQ(map.line(2).address % AddressMap::kRegionAlign, 0u);
    EXPECT_GE(map.line(2).address, map.line(1).address + 64);

    const AccessSpans at_y = map.locate(0, y, 8, 8); // a.y at 48 + 8 = 56..64
    EXPECT_EQ(at_y.offset, 8u);
    ASSERT_EQ(at_y.count, 1u);
    EXPECT_EQ(at_y.spans[0].line, 0u);
    EXPECT_EQ(at_y.spans[0].lo, 56);
    EXPECT_EQ(at_y.spans[0].hi, 64);
    const AccessSpans at_z = map.locate(0, z, 16, 8); // 64..72: a's second line
    EXPECT_EQ(at_z.spans[0].line, 1u);
    EXPECT_EQ(at_z.spans[0].lo, 0);
    EXPECT_EQ(at_z.spans[0].hi, 8);
    const AccessSpans b_z = map.locate(1, z, 128, 8); // b.z at 8 + 128 = 136: b's line 2
    EXPECT_EQ(b_z.spans[0].line, 4u);
    EXPECT_EQ(b_z.spans[0].lo, 8);
}

TEST(AddressMap, OverrideLayoutPlacesFieldsByIdAndPhaseOverrideAppliesToAll) {
    LayoutOverrides overrides;
    overrides.emplace("pair", padded());
    const AddressMap map(one_object(packed(), 40), 128, 4, overrides);
    const AccessSpans at_y = map.locate(0, y, 8, 8); // padded y at 64, phase 4 -> 68
    EXPECT_EQ(at_y.offset, 64u);
    EXPECT_EQ(at_y.spans[0].lo, 68);
    EXPECT_EQ(map.field_name(0, y), "y");
    EXPECT_EQ(map.line_size(), 128u);
}

TEST(AddressMap, RejectsAccessesItCannotPlace) {
    const AddressMap map(one_object(packed()), 64, std::nullopt, {});
    EXPECT_THROW(map.locate(1, x, 0, 8), ReplayError);   // unknown object
    EXPECT_THROW(map.locate(0, z, 20, 8), ReplayError);  // past the 24-byte object
    EXPECT_THROW(map.locate(0, x, 0, 128), ReplayError); // wider than a line
    EXPECT_THROW(AddressMap(one_object(packed()), 64, 64, {}), ReplayError);
    const std::vector<engine::ObjectInfo> twice{{0, "a", packed(), 0}, {0, "b", packed(), 0}};
    EXPECT_THROW(AddressMap(twice, 64, std::nullopt, {}), ReplayError);
}

} // namespace
} // namespace hitmap::c2c
