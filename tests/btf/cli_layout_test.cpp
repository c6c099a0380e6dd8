// `hitmap-collect layout show|diff` and --layout STRUCT=btf[:FILE|:MODULE] end to end: the real
// binary, the running kernel's BTF where it has one, hand-built (standalone and a module's split)
// and garbage BTF files everywhere.
#include "collector/btf/btf_file.hpp"
#include "tests/btf/btf_builder.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <algorithm>
#include <bpf/btf.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <memory>
#include <set>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

#define REQUIRE_KERNEL_BTF()                                                                       \
    if (!std::filesystem::exists(btf::kKernelBtfPath))                                             \
    GTEST_SKIP() << "no " << btf::kKernelBtfPath << " (kernel built without CONFIG_DEBUG_INFO_BTF)"

int count_newlines(const std::string& s) {
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

TEST(CliLayout, ShowReadsTheRunningKernelsPageCounter) {
    REQUIRE_KERNEL_BTF();
    TempDir dir;
    const CliResult r = run_cli({"layout", "show", "page_counter"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, StartsWith("struct page_counter {"));
    EXPECT_THAT(r.out, HasSubstr("  /* from BTF /sys/kernel/btf/vmlinux (kernel "));
    EXPECT_THAT(r.out, HasSubstr(" usage "));
    EXPECT_THAT(r.out, HasSubstr("/* size: "));
    const CliResult j = run_cli({"layout", "show", "page_counter", "--json"}, dir.path());
    ASSERT_EQ(j.status, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["struct"], "page_counter");
    EXPECT_THAT(doc["version"].get<std::string>(), StartsWith("btf:"));
    EXPECT_TRUE(doc["engine_fields_mismatched"].empty());
}

TEST(CliLayout, ShowJsonIsALayoutRunAccepts) {
    REQUIRE_KERNEL_BTF();
    TempDir dir;
    const CliResult j = run_cli({"layout", "show", "page_counter", "--json"}, dir.path());
    ASSERT_EQ(j.status, 0) << j.err;
    std::ofstream(dir / "pc.json") << j.out;
    const CliResult r = run_cli(
        {"run", "page-counter-charge", "--threads", "1", "--iterations", "2000", "--c2c", "off",
         "--layout", "page_counter=" + (dir / "pc.json").string(), "--db", (dir / "r.db").string()},
        dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
}

// v6.0's own page_counter shares usage's line with min..children_min_usage; the kernel's
// (6.2+: CACHELINE_PADDING) with failcnt only. The report's line names say which one ran.
TEST(CliLayout, RunUnderTheKernelsLayoutNamesItsFields) {
    REQUIRE_KERNEL_BTF();
    TempDir dir;
    const std::string db = (dir / "k.db").string();
    const CliResult r = run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--threads",
                                 "2", "--iterations", "20000", "--c2c", "software", "--layout",
                                 "page_counter=btf", "--db", db},
                                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const CliResult rep = run_cli({"report", "1", "--db", db}, dir.path());
    ASSERT_EQ(rep.status, 0) << rep.err;
    const CliResult shown = run_cli({"layout", "show", "page_counter", "--json"}, dir.path());
    const auto kernel = nlohmann::json::parse(shown.out);
    std::string usage_line = "memory.usage";
    for (const auto& f : kernel["fields"])
        if (f["name"] != "usage" && f["offset"].get<int>() < 64)
            usage_line += ",memory." + f["name"].get<std::string>();
    EXPECT_THAT(rep.out, HasSubstr(usage_line + "\n")) << rep.out.substr(0, 3000);
    EXPECT_THAT(rep.out, ::testing::Not(HasSubstr("memory.usage,memory.min,")));
}

TEST(CliLayout, DiffOfBuiltInsShowsWhatLeftTheUsageLine) {
    TempDir dir;
    const CliResult r =
        run_cli({"layout", "diff", "page_counter=v6.0", "page_counter=v6.15"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("  A: v6.0 (built-in, 112 bytes)\n"));
    EXPECT_THAT(r.out, HasSubstr("moved off usage's line: min, low, high, max, emin, min_usage, "
                                 "children_min_usage\n"));
    const CliResult j =
        run_cli({"layout", "diff", "page_counter=v6.0", "page_counter=v6.1", "--json"}, dir.path());
    ASSERT_EQ(j.status, 0) << j.err;
    EXPECT_EQ(nlohmann::json::parse(j.out)["hot_lines"][0]["joined"].size(), 0u);
}

TEST(CliLayout, DiffAgainstTheKernelsBtf) {
    REQUIRE_KERNEL_BTF();
    TempDir dir;
    const CliResult r =
        run_cli({"layout", "diff", "page_counter=v6.0", "page_counter=btf"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("  B: btf:"));
    EXPECT_THAT(r.out, HasSubstr("moved off usage's line: "));
}

// A module's split BTF (hand-built over a hand-built vmlinux) with --btf-base; bare names are
// files in the working directory first.
TEST(CliLayout, ShowReadsAModulesSplitBtfOverItsBase) {
    TempDir dir;
    const btf::testing::ModuleBtf m;
    const std::string base = (dir / "base.btf").string();
    const std::string module = (dir / "mod.btf").string();
    btf::testing::write_bytes(base, m.base.bytes());
    btf::testing::write_bytes(module, m.module.bytes());
    const CliResult r =
        run_cli({"layout", "show", "mod_stats", "--btf", module, "--btf-base", base}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, StartsWith("struct mod_stats {"));
    EXPECT_THAT(r.out, HasSubstr("  /* from BTF " + module + ", xxh3-128 "));
    EXPECT_THAT(r.out, HasSubstr(" on base BTF " + base + ", xxh3-128 "));
    EXPECT_THAT(r.out, HasSubstr(" node.prev "));
    const CliResult j = run_cli(
        {"layout", "show", "list_head", "--btf", module, "--btf-base", base, "--json"}, dir.path());
    ASSERT_EQ(j.status, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["version"], "btf:mod.btf");
    EXPECT_THAT(doc["origin"].get<std::string>(), HasSubstr(" on base BTF " + base));
}

// A module of the running kernel (built here over /sys/kernel/btf/vmlinux) through
// --layout STRUCT=btf:FILE: a vmlinux struct is found through it, read over vmlinux.
TEST(CliLayout, LayoutFromAModuleIsReadOverTheRunningKernel) {
    REQUIRE_KERNEL_BTF();
    TempDir dir;
    const std::unique_ptr<struct btf, void (*)(struct btf*)> vmlinux(
        btf__parse(btf::kKernelBtfPath, nullptr), btf__free);
    ASSERT_TRUE(vmlinux);
    btf::testing::BtfBuilder module(vmlinux.get());
    module.add_struct("hitmap_test_mod_stats", 16);
    module.add_field("list", btf__find_by_name_kind(vmlinux.get(), "list_head", BTF_KIND_STRUCT),
                     0);
    const std::string path = (dir / "hitmap_test_mod").string();
    btf::testing::write_bytes(path, module.bytes());
    const CliResult r =
        run_cli({"layout", "diff", "page_counter=v6.0", "page_counter=btf:" + path}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("  B: btf:hitmap_test_mod (BTF " + path + ", xxh3-128 "));
    EXPECT_THAT(r.out, HasSubstr(" on base BTF /sys/kernel/btf/vmlinux (kernel "));
    const CliResult s =
        run_cli({"layout", "show", "hitmap_test_mod_stats", "--btf", path}, dir.path());
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_THAT(s.out, HasSubstr(" list.next "));
}

TEST(CliLayout, BadInputIsOneLineAndNonZero) {
    TempDir dir;
    btf::testing::write_bytes(dir / "garbage.btf", std::vector<std::byte>(100, std::byte{0x42}));
    btf::testing::BtfBuilder partial; // a page_counter with usage only
    const int lng = partial.add_int("long unsigned int", 8);
    partial.add_struct("page_counter", 8);
    partial.add_field("usage", lng, 0);
    btf::testing::write_bytes(dir / "partial.btf", partial.bytes());
    const std::string garbage = (dir / "garbage.btf").string();
    const std::string partial_file = (dir / "partial.btf").string();
    std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"layout", "show", "page_counter", "--btf", garbage}, "cannot read BTF from " + garbage},
        {{"layout", "show", "no_such_struct", "--btf", partial_file},
         "no struct or union named 'no_such_struct' in btf:partial.btf"},
        {{"layout", "diff", "page_counter=v6.0", "res_counter=v2.6.31"},
         "layout v6.0 is of struct page_counter, layout v2.6.31 of struct res_counter"},
        {{"layout", "diff", "page_counter", "page_counter=v6.0"}, "is not STRUCT=NAME"},
        {{"layout", "diff", "page_counter=v6.0", "page_counter=btf:" + partial_file},
         "struct page_counter of btf:partial.btf does not fit the engine: lacks min, low, high, "
         "max"},
        {{"run", "page-counter-charge", "--iterations", "10", "--layout",
          "page_counter=btf:" + garbage, "--db", (dir / "x.db").string()},
         "cannot read BTF from " + garbage},
    };
    // Split BTF: a missing base, a base for standalone BTF, a base it was not built against,
    // a module not loaded, --btf-base alone.
    const btf::testing::ModuleBtf m;
    const std::string base = (dir / "base.btf").string();
    const std::string module = (dir / "mod.btf").string();
    btf::testing::write_bytes(base, m.base.bytes());
    btf::testing::write_bytes(module, m.module.bytes());
    const std::string nope = (dir / "nope").string();
    cases.insert(
        cases.end(),
        {
            {{"layout", "show", "mod_stats", "--btf", module, "--btf-base", nope},
             "cannot read BTF from " + module +
                 ": it is split BTF (a module's), read over the "
                 "vmlinux BTF it was built against, and there is no " +
                 nope},
            {{"layout", "show", "list_head", "--btf", base, "--btf-base", base},
             "it is not split BTF (a module's), the only kind read over a base"},
            {{"layout", "show", "mod_stats", "--btf", module, "--btf-base", partial_file},
             "cannot read BTF from " + module + ": it does not fit base btf:partial.btf ("},
            {{"layout", "show", "mod_stats", "--btf", "hitmap_no_such_module"},
             "cannot read BTF from hitmap_no_such_module: no such file, and no module of that "
             "name in /sys/kernel/btf"},
            {{"layout", "diff", "page_counter=v6.0", "page_counter=btf:hitmap_no_such_module"},
             "no module of that name in /sys/kernel/btf"},
            {{"layout", "show", "list_head", "--btf-base", base}, "--btf-base requires --btf"},
        });
    for (const auto& [args, message] : cases) {
        const CliResult r = run_cli(args, dir.path());
        EXPECT_NE(r.status, 0) << args[1];
        EXPECT_THAT(r.err, HasSubstr(message));
        EXPECT_EQ(count_newlines(r.err), 1) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "x.db")) << "a refused run stored something";
}

} // namespace
} // namespace hitmap::testing
