// Split BTF, a kernel module's: hand-built over a hand-built base (in memory, as raw files and as
// the .BTF section of an ELF .ko) and over the running kernel's vmlinux; the origin naming both;
// a missing base, a base it was not built against, and a base for BTF that is not split refused
// with one line; a bare module name for /sys/kernel/btf/MODULE.
#include "collector/btf/btf_file.hpp"
#include "collector/btf/errors.hpp"
#include "collector/btf/struct_reader.hpp"
#include "tests/btf/btf_builder.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <bpf/btf.h>
#include <cstdlib>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <memory>
#include <regex>

namespace hitmap::btf {
namespace {

using ::testing::HasSubstr;
using testing::ModuleBtf;
using ::testing::StartsWith;

// mod_stats as the module defines it: node (a base struct, expanded), hits, flag.
void expect_mod_stats(const StructLayout& l) {
    EXPECT_EQ(l.size, 32u);
    ASSERT_EQ(l.members.size(), 5u);
    const std::vector<std::pair<std::string, std::uint64_t>> expected{
        {"node", 0}, {"node.next", 0}, {"node.prev", 8}, {"hits", 16}, {"flag", 24}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(l.members[i].path, expected[i].first);
        EXPECT_EQ(l.members[i].offset(), expected[i].second) << expected[i].first;
    }
    EXPECT_EQ(l.members[0].type, "struct list_head");
    EXPECT_EQ(l.members[1].type, "struct list_head *");
    EXPECT_EQ(l.members[4].type, "unsigned char");
}

std::string write_file(const ::hitmap::testing::TempDir& dir, const std::string& name,
                       const std::vector<std::byte>& bytes) {
    testing::write_bytes(dir / name, bytes);
    return (dir / name).string();
}

// An ELF relocatable object whose .BTF section holds `btf` (a module's .ko, or a vmlinux),
// made by binutils' objcopy as the kernel's build adds .BTF; false where there is no objcopy.
bool write_elf(const std::string& btf, const std::string& elf) {
    const std::string command = "objcopy -I binary -O elf64-little --rename-section .data=.BTF " +
                                ::hitmap::testing::shell_quote(btf) + " " +
                                ::hitmap::testing::shell_quote(elf) + " 2>/dev/null";
    return std::system(command.c_str()) == 0;
}

TEST(SplitBtf, AModulesStructReadsItsBasesTypes) {
    const ModuleBtf m;
    const auto base = std::make_shared<const BtfFile>(m.base.file("base.btf"));
    const BtfFile module = BtfFile::from_bytes(m.module.bytes(), "mod.btf", base);
    EXPECT_EQ(module.base(), base.get());
    const StructLayout l = read_struct_layout(module, "mod_stats");
    expect_mod_stats(l);
    EXPECT_EQ(l.version, "btf:mod.btf");
    // Both hashed: the module's own bytes and the base's.
    const std::regex origin("BTF mod\\.btf, xxh3-128 ([0-9a-f]{32}) on base BTF base\\.btf, "
                            "xxh3-128 ([0-9a-f]{32})");
    std::smatch hashes;
    ASSERT_TRUE(std::regex_match(l.origin, hashes, origin)) << l.origin;
    EXPECT_NE(hashes[1], hashes[2]);
    EXPECT_EQ(" on base " + base->origin(), l.origin.substr(l.origin.find(" on base ")));
}

TEST(SplitBtf, ABaseStructIsFoundThroughTheModule) {
    const ModuleBtf m;
    const auto base = std::make_shared<const BtfFile>(m.base.file("base.btf"));
    const StructLayout l =
        read_struct_layout(BtfFile::from_bytes(m.module.bytes(), "mod.btf", base), "list_head");
    ASSERT_EQ(l.members.size(), 2u);
    EXPECT_EQ(l.members[1].path, "prev");
    EXPECT_EQ(l.size, 16u);
}

TEST(SplitBtf, SplitBytesWithoutABaseAreRefused) {
    const ModuleBtf m;
    try {
        BtfFile::from_bytes(m.module.bytes(), "mod.btf");
        FAIL();
    } catch (const BtfReadError& e) {
        EXPECT_STREQ(e.what(), "cannot read BTF from mod.btf: it is split BTF (a module's), read "
                               "over a base, and none was given");
    }
}

TEST(SplitBtf, StandaloneBytesOverABaseAreRefused) {
    const ModuleBtf m;
    const auto base = std::make_shared<const BtfFile>(m.base.file("base.btf"));
    try {
        BtfFile::from_bytes(m.base.bytes(), "vmlinux.btf", base);
        FAIL();
    } catch (const BtfReadError& e) {
        EXPECT_THAT(e.what(), StartsWith("cannot read BTF from vmlinux.btf over base btf:base.btf: "
                                         "it is not split BTF"));
    }
}

// Over a base it was not built against, a module's ids and name offsets point elsewhere: past
// the last type when the base has fewer types, into the middle of strings when its string
// section differs.
TEST(SplitBtf, ABaseItWasNotBuiltAgainstIsRefused) {
    const ModuleBtf m;
    testing::BtfBuilder fewer; // the same strings, two types less
    fewer.add_int("long unsigned int", 8);
    for (const char* name : {"list_head", "next", "prev"})
        ASSERT_GT(btf__add_str(fewer.get(), name), 0);
    testing::BtfBuilder other; // other strings
    const int i32 = other.add_int("int", 4, true);
    other.add_struct("other_struct_of_another_build", 8);
    other.add_field("a", i32, 0);
    other.add_field("b", i32, 32);
    other.add_int("long int", 8, true);
    const std::vector<std::pair<const testing::BtfBuilder*, std::string>> cases{
        {&fewer, "type 3 refers to type 4, past the last of its base's and its own (3)"},
        {&other, "starts no string of its base's"}};
    for (const auto& [builder, problem] : cases) {
        const auto base = std::make_shared<const BtfFile>(builder->file("other.btf"));
        try {
            BtfFile::from_bytes(m.module.bytes(), "mod.btf", base);
            ADD_FAILURE() << "accepted over " << problem;
        } catch (const BtfReadError& e) {
            EXPECT_THAT(e.what(), StartsWith("cannot read BTF from mod.btf: it does not fit base "
                                             "btf:other.btf ("));
            EXPECT_THAT(e.what(), HasSubstr(problem));
            EXPECT_THAT(e.what(), HasSubstr("read over the vmlinux it was built against"));
        }
    }
}

TEST(SplitBtf, FilesAreToldApartByTheirHeaders) {
    const ModuleBtf m;
    const ::hitmap::testing::TempDir dir;
    const std::string base = write_file(dir, "base.btf", m.base.bytes());
    const std::string module = write_file(dir, "mod.btf", m.module.bytes());
    const BtfFile file = BtfFile::open(module, base);
    expect_mod_stats(read_struct_layout(file, "mod_stats"));
    EXPECT_EQ(file.version(), "btf:mod.btf");
    EXPECT_THAT(file.origin(), StartsWith("BTF " + module + ", xxh3-128 "));
    EXPECT_THAT(file.origin(), HasSubstr(" on base BTF " + base + ", xxh3-128 "));
    EXPECT_EQ(BtfFile::open(base).base(), nullptr);

    const auto refused = [](const std::function<void()>& open) -> std::string {
        try {
            open();
        } catch (const BtfReadError& e) {
            return e.what();
        }
        return "accepted";
    };
    EXPECT_EQ(refused([&] { BtfFile::open(base, base); }),
              "cannot read BTF from " + base + " over base " + base +
                  ": it is not split BTF (a module's), the only kind read over a base");
    EXPECT_EQ(refused([&] { BtfFile::open(module, dir / "nope"); }),
              "cannot read BTF from " + module +
                  ": it is split BTF (a module's), read over the vmlinux BTF it was built "
                  "against, and there is no " +
                  (dir / "nope").string());
}

TEST(SplitBtf, AModulesKoIsSplitToo) {
    const ModuleBtf m;
    const ::hitmap::testing::TempDir dir;
    const std::string base = write_file(dir, "base.btf", m.base.bytes());
    const std::string module = write_file(dir, "mod.btf", m.module.bytes());
    const std::string ko = (dir / "mod.ko").string();
    const std::string vmlinux = (dir / "vmlinux").string();
    if (!write_elf(module, ko) || !write_elf(base, vmlinux))
        GTEST_SKIP() << "no objcopy (binutils) to write an ELF .BTF section with";
    expect_mod_stats(read_struct_layout(BtfFile::open(ko, base), "mod_stats"));
    // An offline module against the vmlinux ELF of its kernel.
    const BtfFile file = BtfFile::open(ko, vmlinux);
    expect_mod_stats(read_struct_layout(file, "mod_stats"));
    EXPECT_THAT(file.origin(), HasSubstr(" on base BTF " + vmlinux + ", xxh3-128 "));
    // The vmlinux ELF alone is standalone, as before.
    EXPECT_EQ(read_struct_layout(BtfFile::open(vmlinux), "list_head").size, 16u);
}

// A module of the running kernel: split BTF built over /sys/kernel/btf/vmlinux, read over it
// by default, its struct naming vmlinux's list_head.
TEST(SplitBtf, TheDefaultBaseIsTheRunningKernel) {
    if (!std::filesystem::exists(kKernelBtfPath))
        GTEST_SKIP() << "no " << kKernelBtfPath << " (kernel built without CONFIG_DEBUG_INFO_BTF)";
    const std::unique_ptr<struct btf, void (*)(struct btf*)> vmlinux(
        btf__parse(kKernelBtfPath, nullptr), btf__free);
    ASSERT_TRUE(vmlinux);
    const int lng = btf__find_by_name_kind(vmlinux.get(), "long unsigned int", BTF_KIND_INT);
    const int list_head = btf__find_by_name_kind(vmlinux.get(), "list_head", BTF_KIND_STRUCT);
    testing::BtfBuilder module(vmlinux.get());
    module.add_struct("hitmap_test_mod_stats", 24);
    module.add_field("node", list_head, 0);
    module.add_field("hits", lng, 128);
    const ::hitmap::testing::TempDir dir;
    const std::string path = write_file(dir, "hitmap_test_mod", module.bytes());
    const BtfFile file = BtfFile::open(path);
    const StructLayout l = read_struct_layout(file, "hitmap_test_mod_stats");
    ASSERT_EQ(l.members.size(), 4u);
    EXPECT_EQ(l.members[2].path, "node.prev");
    EXPECT_EQ(l.members[3].offset(), 16u);
    EXPECT_EQ(file.base()->origin(), BtfFile::running_kernel().origin());
    EXPECT_THAT(l.origin, HasSubstr(" on base BTF /sys/kernel/btf/vmlinux (kernel "));
    // vmlinux's own structs are found through it.
    EXPECT_EQ(read_struct_layout(file, "list_head").size, 16u);
    // A module's BTF over the hand-built base instead: the ids and strings do not fit.
    const ModuleBtf m;
    const std::string base = write_file(dir, "base.btf", m.base.bytes());
    EXPECT_THROW(BtfFile::open(path, base), BtfReadError);
}

TEST(SplitBtf, ABareNameIsAFileHereOrALoadedModule) {
    EXPECT_EQ(btf_path("dir/mod.btf"), "dir/mod.btf");
    EXPECT_EQ(btf_path("/abs/mod.ko"), "/abs/mod.ko");
    try {
        btf_path("hitmap_no_such_module");
        FAIL();
    } catch (const BtfReadError& e) {
        EXPECT_STREQ(e.what(), "cannot read BTF from hitmap_no_such_module: no such file, and no "
                               "module of that name in /sys/kernel/btf (not loaded, or no "
                               "CONFIG_DEBUG_INFO_BTF_MODULES)");
    }
    // In a working directory of its own: a file "vmlinux" there wins over the kernel's.
    const ::hitmap::testing::TempDir dir;
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    const bool kernel = std::filesystem::exists(kKernelBtfPath);
    const auto module = kernel ? btf_path("vmlinux") : std::filesystem::path();
    testing::write_bytes("vmlinux", ModuleBtf::vmlinux().bytes());
    const auto here = btf_path("vmlinux");
    std::filesystem::current_path(before);
    EXPECT_EQ(here, "vmlinux");
    if (kernel) {
        EXPECT_EQ(module, kKernelBtfPath);
    }
}

} // namespace
} // namespace hitmap::btf
