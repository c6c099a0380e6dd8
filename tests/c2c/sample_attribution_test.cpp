// Hardware samples attributed to the objects' fields by their real addresses: lines counted
// from each object's first line, fields cut to the line, padding and foreign addresses apart.
#include "collector/c2c/sample_attribution.hpp"
#include "trace_builder.hpp"

#include <gtest/gtest.h>

namespace hitmap::c2c {
namespace {

ClassCounts load(std::uint64_t hitm) {
    ClassCounts c;
    c.loads = 1;
    c.load_hitm = hitm;
    c.l1_hit = 1 - hitm;
    return c;
}

TEST(SampleAttribution, NamesLinesAndFieldsByRealAddress) {
    // x at 0, y at 8, z at 64 (the second line); 16..63 is padding. Object 1 starts 0x40 into
    // its page, so its line 0 is the line at 0x20040.
    const std::vector<engine::ObjectInfo> objects{
        {0, "a", testing::pair_layout("t", 72, 0, 8, 64), 0},
        {1, "b", testing::pair_layout("t", 72, 0, 8, 64), 0}};
    const std::vector<std::uint64_t> addresses{0x10000, 0x20040};
    const std::vector<AddressedSample> samples{
        {0x10000, 0, load(1)}, // a.x
        {0x10004, 1, load(0)}, // a.x, inside the field
        {0x1000c, 1, load(1)}, // a.y
        {0x10020, 0, load(0)}, // a, padding: the line only
        {0x10040, 0, load(1)}, // a.z, line 1
        {0x20088, 0, load(1)}, // one byte past b (0x20040 + 72)
        {0x30000, 0, load(1)}, // nobody's
    };
    const SampleAttribution a = attribute_samples(samples, objects, addresses, 64);
    EXPECT_EQ(a.unmapped, 2u); // 0x20088 is past b (0x20040 + 72) and 0x30000 is nobody's
    EXPECT_EQ(a.result.records, 5u);
    EXPECT_EQ(a.result.totals.load_hitm, 3u);
    ASSERT_EQ(a.result.lines.size(), 2u);
    EXPECT_EQ(a.result.lines[0].line, (LineKey{0, 0, 0x10000}));
    EXPECT_EQ(a.result.lines[0].counts.loads, 4u);
    EXPECT_EQ(a.result.lines[0].counts.load_hitm, 2u);
    EXPECT_EQ(a.result.lines[1].line, (LineKey{0, 1, 0x10040}));
    ASSERT_EQ(a.result.fields.size(), 3u);
    EXPECT_EQ(a.result.fields[0].field_name, "x");
    EXPECT_EQ(a.result.fields[0].counts.loads, 2u);
    EXPECT_EQ(a.result.fields[0].size, 8u);
    EXPECT_EQ(a.result.fields[1].field_name, "y");
    EXPECT_EQ(a.result.fields[1].offset, 8u);
    EXPECT_EQ(a.result.fields[2].field_name, "z");
    EXPECT_EQ(a.result.fields[2].line.index, 1u);
    ASSERT_EQ(a.result.cpus.size(), 3u); // (line 0, cpu 0), (line 0, cpu 1), (line 1, cpu 0)
    EXPECT_EQ(a.result.cpus[1].cpu, 1u);
    EXPECT_EQ(a.result.cpus[1].counts.loads, 2u);
    EXPECT_TRUE(a.result.pairs.empty()) << "a sample does not say whose store it met";
}

TEST(SampleAttribution, ObjectsWithoutAnAddressAreSkipped) {
    const std::vector<engine::ObjectInfo> objects{
        {0, "a", testing::pair_layout("t", 72, 0, 8, 64), 0}};
    const std::vector<AddressedSample> samples{{0x10, 0, load(1)}};
    const SampleAttribution a = attribute_samples(samples, objects, {0}, 64);
    EXPECT_EQ(a.unmapped, 1u);
    EXPECT_TRUE(a.result.lines.empty());
}

TEST(SampleAttribution, AnObjectStartingMidLineCountsLinesFromItsFirst) {
    const std::vector<engine::ObjectInfo> objects{
        {0, "b", testing::pair_layout("t", 72, 0, 8, 64), 0}};
    // b at 0x20030: x and y in the line at 0x20000 (index 0), z at 0x20070 (index 1).
    const std::vector<AddressedSample> samples{{0x20070, 0, load(1)}};
    const SampleAttribution a = attribute_samples(samples, objects, {0x20030}, 64);
    ASSERT_EQ(a.result.lines.size(), 1u);
    EXPECT_EQ(a.result.lines[0].line, (LineKey{0, 1, 0x20040}));
    ASSERT_EQ(a.result.fields.size(), 1u);
    EXPECT_EQ(a.result.fields[0].offset, 0x30u); // z's first byte within its line
}

} // namespace
} // namespace hitmap::c2c
