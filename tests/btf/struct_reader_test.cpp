// Reading struct layouts out of hand-built BTF: members and holes, nested and anonymous
// members, bitfields in both encodings, zero-size markers, inferred alignment, lookups, and BTF
// that is truncated, garbage or describes no possible struct (a clear error, never a crash).
#include "collector/btf/errors.hpp"
#include "collector/btf/struct_reader.hpp"
#include "tests/btf/btf_builder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

namespace hitmap::btf {
namespace {

using testing::BtfBuilder;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> paths(const StructLayout& l) {
    std::vector<std::string> out;
    for (const Member& m : l.members)
        out.push_back(m.kind == MemberKind::anonymous ? "{" + m.path + "}" : m.path);
    return out;
}

const Member& member(const StructLayout& l, std::string_view path) {
    const Member* m = l.find(path);
    if (!m)
        throw std::runtime_error("no member " + std::string(path));
    return *m;
}

TEST(StructReader, MembersOffsetsSizesAndTypeNames) {
    BtfBuilder b;
    const int ch = b.add_int("char", 1, true);
    const int lng = b.add_int("long int", 8, true);
    const int ptr = b.add_ptr(lng + 2); // to struct s, added next: fields follow their struct
    b.add_struct("s", 24);
    b.add_field("a", ch, 0);
    b.add_field("b", lng, 64);
    b.add_field("next", ptr, 128);
    const StructLayout l = read_struct_layout(b.file(), "s");
    EXPECT_EQ(l.size, 24u);
    EXPECT_EQ(l.align, 8u);
    EXPECT_EQ(l.version, "btf:test.btf");
    EXPECT_THAT(l.origin, StartsWith("BTF test.btf, xxh3-128 "));
    ASSERT_EQ(paths(l), (std::vector<std::string>{"a", "b", "next"}));
    EXPECT_EQ(member(l, "b").offset(), 8u);
    EXPECT_EQ(member(l, "b").size, 8u);
    EXPECT_EQ(member(l, "a").type, "char");
    EXPECT_EQ(member(l, "next").type, "struct s *");
    EXPECT_EQ(member(l, "next").kind, MemberKind::field);
    const auto holes = find_holes(l);
    ASSERT_EQ(holes.size(), 1u);
    EXPECT_EQ(holes[0].bit_offset, 8u);
    EXPECT_EQ(holes[0].bits, 56u);
    EXPECT_EQ(holes[0].before, 1u);
}

TEST(StructReader, NestedStructsAreDottedPathsAndTypedefsAreSeenThrough) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int i32 = b.add_int("int", 4, true);
    const int atomic = b.add_struct("", 8); // typedef struct { s64 counter; } atomic_long_t
    b.add_field("counter", lng, 0);
    const int atomic_long = b.add_typedef("atomic_long_t", atomic);
    const int pc = b.add_struct("page_counter", 16);
    b.add_field("usage", atomic_long, 0);
    b.add_field("max", lng, 64);
    const int const_pc = b.add_const(pc);
    b.add_struct("mem_cgroup", 40);
    b.add_field("id", i32, 0);
    b.add_field("memory", pc, 64);
    b.add_field("swap", const_pc, 192);
    const StructLayout l = read_struct_layout(b.file(), "mem_cgroup");
    EXPECT_EQ(paths(l), (std::vector<std::string>{"id", "memory", "memory.usage",
                                                  "memory.usage.counter", "memory.max", "swap",
                                                  "swap.usage", "swap.usage.counter", "swap.max"}));
    EXPECT_EQ(member(l, "memory").kind, MemberKind::composite);
    EXPECT_EQ(member(l, "memory").type, "struct page_counter");
    EXPECT_EQ(member(l, "memory.usage").type, "atomic_long_t");
    EXPECT_EQ(member(l, "memory.usage").depth, 1u);
    EXPECT_EQ(member(l, "swap.max").offset(), 32u);
    EXPECT_EQ(member(l, "swap").type, "const struct page_counter");
    // A typedef of a struct is found by its name too.
    EXPECT_EQ(read_struct_layout(b.file(), "atomic_long_t").size, 8u);
}

TEST(StructReader, AnonymousUnionsAndStructsAreFlattened) {
    BtfBuilder b;
    const int i32 = b.add_int("int", 4, true);
    const int lng = b.add_int("long int", 8, true);
    const int inner = b.add_struct("", 8);
    b.add_field("b", i32, 0);
    b.add_field("c", i32, 32);
    const int u = b.add_union("", 8);
    b.add_field("a", lng, 0);
    b.add_field("", inner, 0);
    b.add_struct("outer", 16);
    b.add_field("x", i32, 0);
    b.add_field("", u, 64);
    const StructLayout l = read_struct_layout(b.file(), "outer");
    EXPECT_EQ(paths(l), (std::vector<std::string>{"x", "{}", "a", "{}", "b", "c"}));
    EXPECT_EQ(l.members[1].kind, MemberKind::anonymous);
    EXPECT_TRUE(l.members[1].is_union);
    EXPECT_FALSE(l.members[3].is_union);
    EXPECT_EQ(member(l, "c").offset(), 12u);
    EXPECT_EQ(member(l, "a").depth, 1u);
    EXPECT_EQ(member(l, "b").depth, 2u);
    EXPECT_EQ(l.members[1].type, "union {...}");
    const auto holes = find_holes(l); // 4 bytes after x; none inside the union
    ASSERT_EQ(holes.size(), 1u);
    EXPECT_EQ(holes[0].bits, 32u);
}

TEST(StructReader, BitfieldsHaveBitOffsetsAndWidths) {
    BtfBuilder b;
    const int u32 = b.add_int("unsigned int", 4);
    const int u8 = b.add_int("unsigned char", 1);
    b.add_struct("flags", 8);
    b.add_field("a", u32, 0, 3);
    b.add_field("b", u32, 3, 5);
    b.add_field("c", u8, 16, 1);
    b.add_field("d", u32, 32);
    const StructLayout l = read_struct_layout(b.file(), "flags");
    EXPECT_EQ(member(l, "a").kind, MemberKind::bitfield);
    EXPECT_EQ(member(l, "b").bit_offset, 3u);
    EXPECT_EQ(member(l, "b").bit_size, 5u);
    EXPECT_EQ(member(l, "b").size, 4u); // the storage type's size, as pahole prints it
    EXPECT_EQ(member(l, "c").bit_offset, 16u);
    EXPECT_EQ(member(l, "c").offset(), 2u);
    EXPECT_EQ(member(l, "d").kind, MemberKind::field);
    const auto holes = find_holes(l);
    // A byte before c; after it 7 bits to the byte's end, then a byte (pahole counts so).
    ASSERT_EQ(holes.size(), 3u);
    EXPECT_EQ(holes[0].bit_offset, 8u);
    EXPECT_EQ(holes[0].bits, 8u);
    EXPECT_EQ(holes[1].bit_offset, 17u);
    EXPECT_EQ(holes[1].bits, 7u);
    EXPECT_EQ(holes[2].bit_offset, 24u);
    EXPECT_EQ(holes[2].bits, 8u);
}

// BTF without kind_flag (pahole before 1.13, some toolchains) encodes a bitfield's width and
// bit offset in a dedicated INT type: {encoding, offset, bits} in the word after the record.
TEST(StructReader, BitfieldsInThePreKindFlagEncoding) {
    const std::string strings = std::string("\0int3\0s\0a\0b", 12);
    // [1] int3: INT of 4 bytes, 3 bits at bit offset 0; [2] struct s {a: int3 @0, b: int3 @4}
    // ... the member record's offset is then a plain bit offset.
    const std::vector<std::uint32_t> types{1,  testing::type_info(BTF_KIND_INT, 0),
                                           4,  3,
                                           6,  testing::type_info(BTF_KIND_STRUCT, 2),
                                           4,  8,
                                           1,  0,
                                           10, 1,
                                           4};
    const auto bytes = testing::raw_btf(types, strings);
    const StructLayout l = read_struct_layout(BtfFile::from_bytes(bytes, "old.btf"), "s");
    EXPECT_EQ(member(l, "a").kind, MemberKind::bitfield);
    EXPECT_EQ(member(l, "a").bit_size, 3u);
    EXPECT_EQ(member(l, "b").bit_offset, 4u);
    EXPECT_EQ(member(l, "b").type, "int3");
}

// struct page_counter of 6.18 in miniature: CACHELINE_PADDING() markers, cache line groups.
TEST(StructReader, ZeroSizeMarkersAndInferredAlignment) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int u8 = b.add_int("unsigned char", 1);
    const int ch = b.add_int("char", 1, true);
    const int chars = b.add_array(ch, 0);
    const int group = b.add_array(b.add_typedef("__u8", u8), 0);
    const int padding = b.add_struct("cacheline_padding", 0);
    b.add_field("x", chars, 0);
    b.add_struct("counter", 192);
    b.add_field("usage", lng, 0);
    b.add_field("_pad1_", padding, 64 * 8);
    b.add_field("__cacheline_group_begin__hot", group, 64 * 8);
    b.add_field("emin", lng, 64 * 8);
    b.add_field("__cacheline_group_end__hot", group, 72 * 8);
    b.add_field("_pad2_", padding, 128 * 8);
    b.add_field("max", lng, 128 * 8);
    const StructLayout l = read_struct_layout(b.file(), "counter");
    EXPECT_EQ(l.align, 64u); // size 192 after max ends at 136: aligned to 64
    EXPECT_EQ(member(l, "_pad1_").kind, MemberKind::marker);
    EXPECT_EQ(member(l, "_pad1_").forced_align, 64u);
    EXPECT_EQ(member(l, "__cacheline_group_begin__hot").kind, MemberKind::marker);
    EXPECT_EQ(member(l, "__cacheline_group_begin__hot").type, "__u8[0]");
    EXPECT_FALSE(member(l, "emin").forced_align);
    EXPECT_EQ(member(l, "_pad2_").forced_align, 64u);
    EXPECT_EQ(l.tail_padding(), 56u);
    const auto holes = find_holes(l);
    ASSERT_EQ(holes.size(), 2u);
    EXPECT_EQ(holes[0].bits, 56u * 8);
    EXPECT_EQ(holes[1].bit_offset, 72u * 8);
}

TEST(StructReader, ArraysOfStructsShowTheirFirstElement) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int i32 = b.add_int("int", 4, true);
    const int e = b.add_struct("frn", 16);
    b.add_field("id", lng, 0);
    b.add_field("n", i32, 64);
    const int frns = b.add_array(e, 4);
    b.add_struct("s", 64);
    b.add_field("frn", frns, 0);
    const StructLayout l = read_struct_layout(b.file(), "s");
    EXPECT_EQ(paths(l), (std::vector<std::string>{"frn", "frn[0].id", "frn[0].n"}));
    EXPECT_EQ(member(l, "frn").elements, 4u);
    EXPECT_EQ(member(l, "frn").type, "struct frn[4]");
    const auto holes = find_holes(l); // the element's tail padding
    ASSERT_EQ(holes.size(), 1u);
    EXPECT_EQ(holes[0].bit_offset, 12u * 8);
    EXPECT_EQ(holes[0].bits, 32u);
}

TEST(StructReader, UnionsAreReadAndUnknownNamesAreNamed) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    b.add_union("word", 8);
    b.add_field("l", lng, 0);
    EXPECT_TRUE(read_struct_layout(b.file(), "word").is_union);
    try {
        read_struct_layout(b.file("k.btf"), "nosuch");
        FAIL() << "found a struct that does not exist";
    } catch (const StructNotFound& e) {
        EXPECT_STREQ(e.what(), "no struct or union named 'nosuch' in btf:k.btf");
    }
}

TEST(StructReader, APackedStructHasAlignmentOne) {
    BtfBuilder b;
    const int ch = b.add_int("char", 1, true);
    const int i32 = b.add_int("int", 4, true);
    b.add_struct("packed", 5);
    b.add_field("c", ch, 0);
    b.add_field("i", i32, 8);
    EXPECT_EQ(read_struct_layout(b.file(), "packed").align, 1u);
}

TEST(StructReaderErrors, AStructThatContainsItselfIsAFormatError) {
    BtfBuilder b;
    const int s = b.add_struct("loop", 8);
    b.add_field("self", s, 0);
    try {
        read_struct_layout(b.file(), "loop");
        FAIL() << "expanded a cycle";
    } catch (const BtfFormatError& e) {
        EXPECT_THAT(e.what(), HasSubstr("nests deeper than 32 levels"));
    }
}

TEST(StructReaderErrors, AMemberPastTheEndIsAFormatError) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    b.add_struct("short", 4);
    b.add_field("l", lng, 0);
    try {
        read_struct_layout(b.file(), "short");
        FAIL() << "accepted a member past the end";
    } catch (const BtfFormatError& e) {
        EXPECT_STREQ(e.what(),
                     "btf:test.btf: member l (bits 0..64) runs past the end of its 4-byte struct");
    }
}

TEST(StructReaderErrors, AMissingFileIsAReadErrorWithTheReason) {
    try {
        BtfFile::open("/nonexistent/vmlinux");
        FAIL() << "opened a missing file";
    } catch (const BtfReadError& e) {
        EXPECT_THAT(e.what(), StartsWith("cannot read BTF from /nonexistent/vmlinux: "));
        EXPECT_THAT(e.what(), HasSubstr("No such file or directory"));
    }
}

TEST(StructReaderErrors, EveryTruncationOfValidBtfIsRefused) {
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    b.add_struct("s", 8);
    b.add_field("l", lng, 0);
    const auto bytes = b.bytes();
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        SCOPED_TRACE(n);
        try {
            BtfFile::from_bytes(std::span(bytes).first(n), "cut.btf");
            ADD_FAILURE() << "accepted " << n << " of " << bytes.size() << " bytes";
        } catch (const BtfReadError& e) {
            EXPECT_THAT(e.what(), StartsWith("cannot read BTF from cut.btf: "));
        }
    }
}

TEST(StructReaderErrors, TruncatedHeaderSaysSo) {
    const std::vector<std::byte> bytes(10, std::byte{0x9f});
    try {
        BtfFile::from_bytes(bytes, "ten.btf");
        FAIL();
    } catch (const BtfReadError& e) {
        EXPECT_THAT(e.what(), HasSubstr("BTF header not found"));
    }
}

TEST(StructReaderErrors, GarbageIsRefusedOrReadWithoutCrashing) {
    std::mt19937 random(16);
    BtfBuilder b;
    const int lng = b.add_int("long int", 8, true);
    const int ptr = b.add_ptr(lng);
    b.add_struct("s", 16);
    b.add_field("a", lng, 0);
    b.add_field("b", ptr, 64);
    const auto valid = b.bytes();
    for (int round = 0; round < 2000; ++round) {
        auto bytes = valid;
        // Keep the magic most of the time so that the sections get parsed.
        for (std::size_t i = round % 4 ? 4 : 0; i < bytes.size(); ++i)
            if (random() % 8 == 0)
                bytes[i] = std::byte(random());
        try {
            const BtfFile file = BtfFile::from_bytes(bytes, "garbage.btf");
            for (const std::string& name : file.composite_names())
                read_struct_layout(file, name);
        } catch (const BtfReadError&) {
        } catch (const BtfFormatError&) {
        } catch (const StructNotFound&) {
        }
    }
}

} // namespace
} // namespace hitmap::btf
