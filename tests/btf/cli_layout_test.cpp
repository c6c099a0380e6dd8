// `hitmap-collect layout show|diff` and --layout STRUCT=btf[:FILE] end to end: the real binary,
// the running kernel's BTF where it has one, hand-built and garbage BTF files everywhere.
#include "collector/btf/btf_file.hpp"
#include "tests/btf/btf_builder.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
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

void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<long>(bytes.size()));
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

TEST(CliLayout, BadInputIsOneLineAndNonZero) {
    TempDir dir;
    write_bytes(dir / "garbage.btf", std::vector<std::byte>(100, std::byte{0x42}));
    btf::testing::BtfBuilder partial; // a page_counter with usage only
    const int lng = partial.add_int("long unsigned int", 8);
    partial.add_struct("page_counter", 8);
    partial.add_field("usage", lng, 0);
    write_bytes(dir / "partial.btf", partial.bytes());
    const std::string garbage = (dir / "garbage.btf").string();
    const std::string partial_file = (dir / "partial.btf").string();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
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
