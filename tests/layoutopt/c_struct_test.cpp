// The emitted C compiles with the system C compiler, and the compiler's offsetof, sizeof and
// _Alignof equal the layout JSON the optimizer emits beside it.
#include "collector/layoutopt/c_struct.hpp"
#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace hitmap::layoutopt {
namespace {

using testing::shell_quote;
using testing::TempDir;

// The C of `layout`, then a _Static_assert per field of its JSON: compiled, not run, so every
// mismatch is a compile error naming the field.
std::string checked_source(const engine::Layout& layout, CStyle style) {
    const nlohmann::json json = nlohmann::json::parse(engine::layout_json(layout));
    const std::string name = json["struct"];
    std::string c = "#include \"kernel_cache_prelude.h\"\n\n" + c_struct(layout, style) + "\n";
    for (const auto& f : json["fields"])
        c += fmt::format("_Static_assert(offsetof(struct {0}, {1}) == {2}, \"{1} at {2}\");\n"
                         "_Static_assert(sizeof(((struct {0} *)0)->{1}) == {3}, \"{1} size\");\n",
                         name, f["name"].get<std::string>(), f["offset"].get<unsigned>(),
                         f["size"].get<unsigned>());
    c += fmt::format("_Static_assert(sizeof(struct {0}) == {1}, \"sizeof\");\n"
                     "_Static_assert(_Alignof(struct {0}) == {2}, \"alignment\");\n",
                     name, json["size"].get<unsigned>(), json["align"].get<unsigned>());
    return c;
}

// Exit status of the C compiler on `source`, with its messages.
std::pair<int, std::string> compile(const std::string& source) {
    const TempDir dir;
    const auto file = dir / "layout.c";
    std::ofstream(file) << source;
    const auto log = dir / "cc.txt";
    const std::string cmd =
        fmt::format("{} -std=gnu11 -Wall -Werror -fsyntax-only -I {} {} >{} 2>&1",
                    shell_quote(HITMAP_C_COMPILER), shell_quote(HITMAP_LAYOUTOPT_TEST_DIR),
                    shell_quote(file.string()), shell_quote(log.string()));
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, testing::read_file(log)};
}

engine::Layout proposal() {
    using namespace engine::pc;
    const std::vector<std::vector<engine::FieldId>> lines{
        {usage, watermark},
        {min, low, high, max, parent},
        {emin, min_usage, children_min_usage, elow, low_usage, children_low_usage, failcnt}};
    engine::Layout l = layout_from_lines(engine::page_counter_type(), lines, "proposal");
    l.version = placement_version(l);
    return l;
}

TEST(CStruct, ProposalCompilesWithTheOffsetsOfItsJson) {
    for (const CStyle style : {CStyle::padding, CStyle::groups}) {
        const auto [status, messages] = compile(checked_source(proposal(), style));
        EXPECT_EQ(status, 0) << messages;
    }
}

TEST(CStruct, ReproducesTheKernelsPaddedPageCounters) {
    // v6.1 and v6.15 are line-aligned with naturally packed lines: written with padding they
    // give the kernel's offsets, bools of v6.15 included.
    for (const char* version : {"v6.1", "v6.15"}) {
        const engine::Layout* l = engine::find_builtin_layout("page_counter", version);
        ASSERT_NE(l, nullptr);
        const std::string c = c_struct(*l, CStyle::padding);
        EXPECT_NE(c.find("\tCACHELINE_PADDING(_pad2_);\n\n"), std::string::npos) << c;
        EXPECT_NE(c.find("} ____cacheline_aligned_in_smp;"), std::string::npos) << c;
        const auto [status, messages] = compile(checked_source(*l, CStyle::padding));
        EXPECT_EQ(status, 0) << version << ": " << messages;
    }
}

TEST(CStruct, WritesV6_1AsShakeelsPatchDid) {
    // include/linux/page_counter.h of v6.1: usage alone, then the charge-path fields, then the
    // read-mostly limits and parent.
    const std::string c =
        c_struct(*engine::find_builtin_layout("page_counter", "v6.1"), CStyle::padding);
    EXPECT_NE(c.find("struct page_counter {\n\tatomic_long_t usage;\n\tCACHELINE_PADDING(_pad1_);"
                     "\n\n\tunsigned long emin;\n"),
              std::string::npos)
        << c;
    EXPECT_NE(c.find("\tCACHELINE_PADDING(_pad2_);\n\n\tunsigned long min;\n\tunsigned long "
                     "low;\n\tunsigned long high;\n\tunsigned long max;\n\tstruct page_counter "
                     "*parent;\n}"),
              std::string::npos)
        << c;
}

TEST(CStruct, AWrongOffsetFailsToCompile) {
    // The check can fail: the JSON of one layout against the C of another.
    engine::Layout shifted = proposal();
    std::string source = checked_source(shifted, CStyle::padding);
    const std::string c = c_struct(shifted, CStyle::padding);
    engine::Layout other = *engine::find_builtin_layout("page_counter", "v6.1");
    source.replace(source.find(c), c.size(), c_struct(other, CStyle::padding));
    EXPECT_NE(compile(source).first, 0);
}

TEST(CStruct, RefusesWhatCCannotSay) {
    // v6.0 is not line-aligned (align 8): padding cannot express it.
    EXPECT_THROW(c_struct(*engine::find_builtin_layout("page_counter", "v6.0"), CStyle::padding),
                 OptimizeError);
    // mem_cgroup's fields are paths ("memory.usage"), not identifiers.
    const engine::Layout memcg = *engine::find_builtin_layout("mem_cgroup", "v6.1");
    EXPECT_THROW(c_struct(memcg, CStyle::padding), OptimizeError);
}

TEST(CStruct, StylesParse) {
    EXPECT_EQ(parse_c_style("padding"), CStyle::padding);
    EXPECT_EQ(parse_c_style("groups"), CStyle::groups);
    EXPECT_EQ(parse_c_style("pad"), std::nullopt);
}

} // namespace
} // namespace hitmap::layoutopt
