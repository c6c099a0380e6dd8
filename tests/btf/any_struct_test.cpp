// Any struct of any BTF, not only the engine's: its layouts diffed member by member, read back
// from the JSON `layout show` writes, and placed on a capture as the members the capture touched
// (holes and tail padding named as such), through the same sample attribution a hardware run
// uses: synthetic samples inside mm_struct, rq and task_struct of this machine's BTF.
#include "collector/btf/layout_diff.hpp"
#include "collector/btf/layout_json.hpp"
#include "collector/btf/struct_reader.hpp"
#include "collector/btf/touched_layout.hpp"
#include "collector/c2c/sample_attribution.hpp"
#include "engine/layout/layout_error.hpp"
#include "tests/btf/btf_builder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::btf {
namespace {

using testing::BtfBuilder;
using ::testing::ElementsAre;

// struct stats {long hits; int misses; /* 4-byte hole */ long bytes; struct {int a; char b;}
// inner; /* 3 bytes of inner's tail padding */ char flag; /* 7 bytes of tail padding */}:
// 40 bytes. `wide` moves bytes to 24 and grows the struct by 8.
StructLayout stats(bool wide = false) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int i32 = b.add_int("int", 4, true);
    const int ch = b.add_int("char", 1, true);
    const int inner = b.add_struct("inner_t", 8);
    b.add_field("a", i32, 0);
    b.add_field("b", ch, 32);
    b.add_struct("stats", wide ? 48 : 40);
    b.add_field("hits", lng, 0);
    b.add_field("misses", i32, 64);
    b.add_field("bytes", lng, wide ? 192 : 128);
    b.add_field("inner", inner, wide ? 256 : 192);
    b.add_field("flag", ch, wide ? 320 : 256);
    return read_struct_layout(b.file(wide ? "wide.btf" : "stats.btf"), "stats");
}

std::vector<std::string> names(const TouchedLayout& t) {
    return t.type->fields;
}

TEST(AnyStruct, TouchedLayoutNamesMembersHolesAndPadding) {
    const StructLayout s = stats();
    const std::vector<std::uint64_t> offsets{0, 3, 12, 16, 29, 32, 33, 39, 40, 4096};
    const TouchedLayout t = touched_layout(s, offsets);
    EXPECT_THAT(names(t), ElementsAre("hits", "(hole before bytes)", "bytes",
                                      "(padding at the end of inner)", "flag", "(tail padding)"))
        << "0 and 3 are hits once; 40 and 4096 lie past the struct";
    EXPECT_EQ(t.layout.type, t.type.get());
    EXPECT_EQ(t.layout.size, 40u);
    ASSERT_EQ(t.layout.placement.size(), 6u);
    EXPECT_EQ(t.layout.at(1).offset, 12u);
    EXPECT_EQ(t.layout.at(1).size, 4u);
    EXPECT_EQ(t.layout.at(5).offset, 33u);
    EXPECT_EQ(t.layout.at(5).size, 7u);
    EXPECT_EQ(member_at(s, 24)->path, "inner.a");
    EXPECT_EQ(member_at(s, 13), nullptr);
}

TEST(AnyStruct, DiffNamesMovedMembersByPath) {
    const LayoutDiff d = diff_layouts(stats(), stats(true));
    EXPECT_EQ(d.struct_name, "stats");
    EXPECT_EQ(d.a.size, 40u);
    EXPECT_EQ(d.b.size, 48u);
    std::vector<std::string> moved;
    for (const FieldChange& c : d.fields)
        if (c.a && c.b && c.a->offset != c.b->offset)
            moved.push_back(c.field);
    EXPECT_THAT(moved, ElementsAre("bytes", "inner.a", "inner.b", "flag"));
    EXPECT_THAT(format_diff_text(d), ::testing::HasSubstr("struct stats\n"));
    StructLayout other = stats();
    other.name = "other";
    EXPECT_THROW(diff_layouts(stats(), other), engine::LayoutError);
}

TEST(AnyStruct, ShowJsonReadsBackAsTheSameLayout) {
    const StructLayout s = stats();
    const StructLayout back = parse_struct_layout_json(layout_json(s).dump(), "stats.json");
    EXPECT_EQ(back.name, "stats");
    EXPECT_EQ(back.size, s.size);
    EXPECT_EQ(back.version, s.version);
    ASSERT_EQ(back.members.size(), s.members.size());
    for (std::size_t i = 0; i < s.members.size(); ++i) {
        EXPECT_EQ(back.members[i].path, s.members[i].path);
        EXPECT_EQ(back.members[i].kind, s.members[i].kind);
        EXPECT_EQ(back.members[i].bit_offset, s.members[i].bit_offset);
        EXPECT_EQ(back.members[i].size, s.members[i].size);
    }
    EXPECT_EQ(diff_layouts(s, back).fields.size(), 6u);
    // Written by hand: fields only.
    const StructLayout hand = parse_struct_layout_json(
        R"({"struct": "x", "size": 16, "fields": [{"name": "a", "offset": 8, "size": 8}]})",
        "x.json");
    ASSERT_EQ(hand.members.size(), 1u);
    EXPECT_EQ(hand.members[0].offset(), 8u);
    EXPECT_THROW(parse_struct_layout_json(R"({"struct": "x", "size": 4, "fields": [{"name": "a",
        "offset": 8, "size": 8}]})",
                                          "x.json"),
                 engine::LayoutError);
    EXPECT_THROW(parse_struct_layout_json("{", "x.json"), engine::LayoutError);
}

// Hardware samples inside three kernel structs: every sample is counted on the member of this
// BTF that holds its address, the same member member_at names (the pahole comparison of
// member_at is the CLI test's, through an import).
TEST(AnyStruct, SampleAttributionNamesKernelStructsFields) {
    if (!std::filesystem::exists(kKernelBtfPath))
        GTEST_SKIP() << "no " << kKernelBtfPath << " (kernel built without CONFIG_DEBUG_INFO_BTF)";
    const BtfFile kernel = BtfFile::running_kernel();
    std::vector<engine::ObjectInfo> objects;
    std::vector<std::uint64_t> addresses;
    std::vector<c2c::AddressedSample> samples;
    std::vector<TouchedLayout> keep;
    std::vector<StructLayout> structs;
    std::uint64_t base = 0xffff888100000000;
    for (const char* name : {"mm_struct", "rq", "task_struct"}) {
        structs.push_back(read_struct_layout(kernel, name));
        std::vector<std::uint64_t> offsets;
        for (std::uint64_t o = 0; o < structs.back().size && o < 1024; o += 24)
            offsets.push_back(o);
        keep.push_back(touched_layout(structs.back(), offsets));
        objects.push_back(
            {static_cast<engine::ObjectId>(objects.size()), name, keep.back().layout, 0});
        addresses.push_back(base);
        for (const std::uint64_t o : offsets) {
            c2c::AddressedSample s{base + o, 0, {}};
            s.counts.loads = 1;
            samples.push_back(s);
        }
        base += 0x100000;
    }
    const c2c::SampleAttribution a = c2c::attribute_samples(samples, objects, addresses, 64);
    EXPECT_EQ(a.unmapped, 0u);
    std::size_t named = 0;
    for (const c2c::FieldStats& f : a.result.fields) {
        const StructLayout& s = structs[f.line.object];
        const std::uint64_t at = f.line.index * 64 + f.offset;
        const Member* m = member_at(s, at);
        if (m) {
            EXPECT_EQ(f.field_name, m->path) << s.name << "+" << at;
            ++named;
        } else { // a gap, or an element past the first of an array of structs
            EXPECT_TRUE(f.field_name.front() == '(' || f.field_name.find("]") != std::string::npos)
                << s.name << "+" << at << " " << f.field_name;
        }
    }
    EXPECT_GT(named, 60u);
}

} // namespace
} // namespace hitmap::btf
