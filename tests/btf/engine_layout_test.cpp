// BTF layouts as the engine's layouts: fields placed at their members' offsets, every missing
// field the engine always needs listed in one refusal, members of the wrong size or kind
// refused, the origin recorded, and --layout STRUCT=btf:FILE resolved through the same path.
#include "collector/btf/engine_layout.hpp"
#include "collector/btf/errors.hpp"
#include "collector/btf/layout_source.hpp"
#include "collector/btf/struct_reader.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"
#include "tests/btf/btf_builder.hpp"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::btf {
namespace {

using testing::BtfBuilder;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Field {
    const char* name;
    std::uint32_t offset;
    std::uint32_t size = 8;
};

// struct page_counter with the given members (8-byte longs, 1-byte bools), sizeof `size`.
BtfBuilder page_counter_btf(const std::vector<Field>& fields, std::uint32_t size) {
    BtfBuilder b;
    const int lng = b.add_int("long unsigned int", 8);
    const int boolean = b.add_int("_Bool", 1);
    const int i32 = b.add_int("int", 4, true);
    b.add_struct("page_counter", size);
    for (const Field& f : fields)
        b.add_field(f.name, f.size == 8 ? lng : f.size == 4 ? i32 : boolean, f.offset * 8);
    return b;
}

// The members of a built-in page_counter layout, as BTF would list them.
std::vector<Field> fields_of(const engine::Layout& l) {
    std::vector<Field> out;
    for (engine::FieldId f = 0; f < l.placement.size(); ++f)
        if (l.has(f))
            out.push_back({l.type->fields[f].c_str(), l.at(f).offset, l.at(f).size});
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.offset < b.offset; });
    return out;
}

// Each field's {offset, size}, or {-1, -1} where the layout lacks it.
std::vector<std::pair<long, long>> placements(const engine::Layout& l) {
    std::vector<std::pair<long, long>> out;
    for (engine::FieldId f = 0; f < l.placement.size(); ++f)
        out.emplace_back(l.has(f) ? l.at(f).offset : -1, l.has(f) ? l.at(f).size : -1);
    return out;
}

std::string refusal(const StructLayout& btf, const engine::StructType& type) {
    try {
        to_engine_layout(btf, type);
    } catch (const engine::LayoutError& e) {
        return e.what();
    }
    return "";
}

TEST(EngineLayout, A615PageCounterFromBtfPlacesEveryFieldAsTheBuiltIn) {
    const engine::Layout& v615 = *engine::find_builtin_layout("page_counter", "v6.15");
    const BtfBuilder b = page_counter_btf(fields_of(v615), 192);
    const engine::Layout l = to_engine_layout(read_struct_layout(b.file("pc.btf"), "page_counter"),
                                              engine::page_counter_type());
    EXPECT_EQ(l.version, "btf:pc.btf");
    EXPECT_THAT(l.origin, StartsWith("BTF pc.btf, xxh3-128 "));
    EXPECT_EQ(l.size, 192u);
    EXPECT_EQ(l.align, 64u); // inferred: the last member ends at 176
    EXPECT_EQ(placements(l), placements(v615));
}

TEST(EngineLayout, AFieldOnlySomeVersionsHaveMayBeAbsent) {
    // A v6.0 kernel's BTF: no local_watermark, protection_support, track_failcnt.
    const engine::Layout& v60 = *engine::find_builtin_layout("page_counter", "v6.0");
    const StructLayout btf =
        read_struct_layout(page_counter_btf(fields_of(v60), 112).file(), "page_counter");
    const engine::Layout l = to_engine_layout(btf, engine::page_counter_type());
    EXPECT_EQ(placements(l), placements(v60));
    const FieldMapping map = map_fields(btf, engine::page_counter_type());
    EXPECT_EQ(map.missing,
              (std::vector<std::string>{"local_watermark", "protection_support", "track_failcnt"}));
    EXPECT_TRUE(map.required.empty());
}

TEST(EngineLayout, MissingFieldsTheEngineAlwaysUsesAreRefusedTogether) {
    const StructLayout btf = read_struct_layout(
        page_counter_btf({{"usage", 0}, {"min", 8}, {"low", 16}, {"high", 24}}, 32).file(),
        "page_counter");
    EXPECT_EQ(refusal(btf, engine::page_counter_type()),
              "struct page_counter of btf:test.btf does not fit the engine: lacks max, emin, "
              "min_usage, children_min_usage, elow, low_usage, children_low_usage, watermark, "
              "failcnt, parent");
}

TEST(EngineLayout, AMemberOfAnotherSizeOrABitfieldIsRefused) {
    std::vector<Field> fields = fields_of(*engine::find_builtin_layout("page_counter", "v6.0"));
    fields[0].size = 4; // usage as an int
    const StructLayout narrow =
        read_struct_layout(page_counter_btf(fields, 112).file(), "page_counter");
    EXPECT_THAT(refusal(narrow, engine::page_counter_type()),
                HasSubstr("usage (int) is 4 bytes, the engine's usage is 8"));

    BtfBuilder b;
    const int lng = b.add_int("long unsigned int", 8);
    b.add_struct("page_counter", 112);
    for (const Field& f : fields_of(*engine::find_builtin_layout("page_counter", "v6.0")))
        b.add_field(f.name, lng, f.offset * 8, std::string_view(f.name) == "max" ? 7 : 0);
    EXPECT_THAT(refusal(read_struct_layout(b.file(), "page_counter"), engine::page_counter_type()),
                HasSubstr("max is a bitfield"));
}

TEST(EngineLayout, FieldsThatStandForOneWordOfAMemberNameIt) {
    const engine::StructType& mcg = engine::mem_cgroup_type();
    EXPECT_EQ(btf_member_path(mcg, engine::mcg::css_refcnt), "css.refcnt.percpu_count_ptr");
    EXPECT_EQ(btf_member_path(mcg, engine::mcg::id), "id.id");
    EXPECT_EQ(btf_member_path(mcg, engine::counter_field(engine::Counter::swap, engine::pc::high)),
              "swap.high");
}

// The engine's layout of a struct from a BTF file, by the command line's name for it.
TEST(LayoutSource, BtfFileBuiltInAndJsonFile) {
    const engine::Layout& v615 = *engine::find_builtin_layout("page_counter", "v6.15");
    const auto bytes = page_counter_btf(fields_of(v615), 192).bytes();
    const auto path = std::filesystem::temp_directory_path() /
                      ("hitmap-btf-" + std::to_string(getpid()) + ".btf");
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    const engine::Layout l = resolve_layout("page_counter", "btf:" + path.string());
    EXPECT_EQ(placements(l), placements(v615));
    EXPECT_EQ(l.version, "btf:" + path.filename().string());
    EXPECT_THAT(l.origin, StartsWith("BTF " + path.string() + ", xxh3-128 "));
    std::filesystem::remove(path);

    EXPECT_EQ(resolve_layout("page_counter", "v6.1").origin, "built-in");
    EXPECT_THROW(resolve_layout("page_counter", "btf:"), engine::LayoutError);
    EXPECT_THROW(resolve_layout("page_counter", "btf:/nonexistent.btf"), BtfReadError);
    EXPECT_THROW(resolve_layout("no_such_struct", "btf"), engine::LayoutError);
}

TEST(LayoutSource, ComposedMemCgroupSaysWhereItsPageCounterCameFrom) {
    engine::Layout pc = *engine::find_builtin_layout("page_counter", "v6.15");
    pc.version = "btf:x";
    pc.origin = "BTF x, xxh3-128 00";
    const engine::Layout mcg = engine::compose_mem_cgroup("v6.0", pc);
    EXPECT_EQ(mcg.origin, "built-in mem_cgroup v6.0 around page_counter from BTF x, xxh3-128 00");
    EXPECT_EQ(engine::find_builtin_layout("mem_cgroup", "v6.0")->origin, "built-in");
}

// The running kernel's mem_cgroup: its engine fields sit where its BTF puts the members.
TEST(KernelBtf, MemCgroupFieldsFollowTheKernelsMembers) {
    if (!std::filesystem::exists(kKernelBtfPath))
        GTEST_SKIP() << "no " << kKernelBtfPath << " (kernel built without CONFIG_DEBUG_INFO_BTF)";
    const BtfFile kernel = BtfFile::running_kernel();
    const StructLayout btf = read_struct_layout(kernel, "mem_cgroup");
    const engine::StructType& type = engine::mem_cgroup_type();
    const FieldMapping map = map_fields(btf, type);
    for (engine::FieldId f = 0; f < type.fields.size(); ++f) {
        if (!map.layout.has(f))
            continue;
        const Member* m = btf.find(btf_member_path(type, f));
        ASSERT_NE(m, nullptr);
        EXPECT_EQ(map.layout.at(f).offset, m->offset()) << type.fields[f];
    }
    EXPECT_TRUE(map.layout.has(engine::counter_field(engine::Counter::memory, engine::pc::usage)));
    EXPECT_TRUE(map.layout.has(engine::mcg::id));
    EXPECT_TRUE(map.mismatched.empty()) << map.mismatched.front();
}

} // namespace
} // namespace hitmap::btf
