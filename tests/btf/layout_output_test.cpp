// A BTF layout printed as text (holes, cache-line boundaries, markers, bitfields) and as JSON
// that --layout reads back.
#include "collector/btf/engine_layout.hpp"
#include "collector/btf/layout_json.hpp"
#include "collector/btf/layout_text.hpp"
#include "collector/btf/struct_reader.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"
#include "tests/btf/btf_builder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::btf {
namespace {

using testing::BtfBuilder;
using ::testing::HasSubstr;
using ::testing::Not;

// page_counter as 6.18 declares it (include/linux/page_counter.h): CACHELINE_PADDING(_pad1_)
// after failcnt, CACHELINE_PADDING(_pad2_) before protection_support, and a bitfield pair added
// for the test.
StructLayout counter_6_18() {
    BtfBuilder b;
    const int lng = b.add_int("long unsigned int", 8);
    const int boolean = b.add_int("_Bool", 1);
    const int ch = b.add_int("char", 1, true);
    const int chars = b.add_array(ch, 0);
    const int padding = b.add_struct("cacheline_padding", 0);
    b.add_field("x", chars, 0);
    const int pc = b.add_struct("page_counter", 192);
    (void)pc;
    const std::pair<const char*, int> line1[] = {
        {"emin", 64},       {"min_usage", 72},       {"children_min_usage", 80},
        {"elow", 88},       {"low_usage", 96},       {"children_low_usage", 104},
        {"watermark", 112}, {"local_watermark", 120}};
    b.add_field("usage", lng, 0);
    b.add_field("failcnt", lng, 64);
    b.add_field("_pad1_", padding, 64 * 8);
    for (const auto& [name, offset] : line1)
        b.add_field(name, lng, offset * 8);
    b.add_field("_pad2_", padding, 128 * 8);
    b.add_field("protection_support", boolean, 128 * 8);
    b.add_field("track_failcnt", boolean, 129 * 8);
    b.add_field("test_bits", boolean, 130 * 8 + 2, 3);
    const std::pair<const char*, int> line2[] = {
        {"min", 136}, {"low", 144}, {"high", 152}, {"max", 160}, {"parent", 168}};
    for (const auto& [name, offset] : line2)
        b.add_field(name, lng, offset * 8);
    return read_struct_layout(b.file("pc.btf"), "page_counter");
}

TEST(LayoutText, HolesBoundariesMarkersAndBitfields) {
    const std::string text = format_layout_text(counter_6_18());
    EXPECT_THAT(text, HasSubstr("struct page_counter {  /* 192 bytes, aligned 64 (inferred), 3 "
                                "cache lines of 64 bytes counted from offset 0 */\n"));
    EXPECT_THAT(text, HasSubstr("/* from BTF pc.btf, xxh3-128 "));
    EXPECT_THAT(text, HasSubstr("\n          16      48  /* XXX 48 bytes hole */\n"));
    EXPECT_THAT(text, HasSubstr("\n  /* --- cacheline 1 boundary (64 bytes) --- */\n"
                                "          64       0  _pad1_ "));
    EXPECT_THAT(text, HasSubstr("  struct cacheline_padding  /* CACHELINE_PADDING, aligned 64 */"));
    EXPECT_THAT(text, HasSubstr("\n  /* --- cacheline 2 boundary (128 bytes) --- */\n"
                                "         128       0  _pad2_ "));
    EXPECT_THAT(text, HasSubstr("\n         130  2 bits  /* XXX 2 bits hole */\n"
                                "       130:2  3 bits  test_bits  "));
    EXPECT_THAT(text, HasSubstr("\n       130:5  3 bits  /* XXX 3 bits hole */\n"
                                "         131       5  /* XXX 5 bytes hole */\n"
                                "         136       8  min "));
    EXPECT_THAT(text, HasSubstr("/* size: 192, cachelines: 3, members: 20, holes: 4, 53 bytes, "
                                "5 bits, padding: 16 */\n};\n"));
}

TEST(LayoutText, DepthLimitsTheNestedMembersShown) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int inner = b.add_struct("inner", 8);
    b.add_field("counter", lng, 0);
    b.add_struct("outer", 8);
    b.add_field("usage", inner, 0);
    const StructLayout l = read_struct_layout(b.file(), "outer");
    EXPECT_THAT(format_layout_text(l), HasSubstr("usage.counter"));
    EXPECT_THAT(format_layout_text(l, 0), Not(HasSubstr("usage.counter")));
    EXPECT_EQ(layout_json(l, 0)["members"].size(), 1u);
}

TEST(LayoutJson, IsTheLayoutFormatLayoutReadsBack) {
    const StructLayout btf = counter_6_18();
    const auto doc = layout_json(btf);
    EXPECT_EQ(doc["struct"], "page_counter");
    EXPECT_EQ(doc["version"], "btf:pc.btf");
    EXPECT_EQ(doc["line_size"], 64);
    EXPECT_EQ(doc["members"].size(), 20u);
    EXPECT_EQ(doc["members"][2]["kind"], "marker");
    EXPECT_EQ(doc["members"][2]["marks"], "CACHELINE_PADDING");
    EXPECT_EQ(doc["members"][14]["path"], "test_bits");
    EXPECT_EQ(doc["members"][14]["bit_offset"], 130 * 8 + 2);
    EXPECT_EQ(doc["members"][14]["bit_size"], 3);
    EXPECT_EQ(doc["holes"].size(), 4u);
    const engine::Layout back = engine::parse_layout_json(doc.dump(), "pc.json");
    const engine::Layout direct = to_engine_layout(btf, engine::page_counter_type());
    EXPECT_EQ(back.size, direct.size);
    EXPECT_EQ(back.align, 64u);
    for (engine::FieldId f = 0; f < engine::pc::kCount; ++f) {
        ASSERT_TRUE(back.has(f)) << engine::page_counter_type().fields[f];
        EXPECT_EQ(back.at(f).offset, direct.at(f).offset);
    }
}

TEST(LayoutJson, AStructTheEngineDoesNotModelListsItsLeaves) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int inner = b.add_struct("inner", 8);
    b.add_field("counter", lng, 0);
    b.add_struct("tcp_thing", 16);
    b.add_field("usage", inner, 0);
    b.add_field("n", lng, 64);
    const auto doc = layout_json(read_struct_layout(b.file(), "tcp_thing"));
    ASSERT_EQ(doc["fields"].size(), 2u);
    EXPECT_EQ(doc["fields"][0]["name"], "usage.counter");
    EXPECT_EQ(doc["fields"][1]["offset"], 8);
    EXPECT_FALSE(doc.contains("engine_fields_missing"));
}

} // namespace
} // namespace hitmap::btf
