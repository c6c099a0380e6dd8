// What importing a report of a run's own recording needs (`run --c2c perf`): layouts placed
// under the objects' names, objects perf saw no line on kept without lines instead of refused,
// and perf's "-nan%" shares of zero LLC misses read as no value.
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/imported_run.hpp"
#include "collector/perfc2c/report_parser.hpp"
#include "engine/layout/layout_registry.hpp"
#include "tests/perfc2c/c2c_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::testing {
namespace {

using namespace perfc2c;

// One shared line at `address` with one Pareto row at offset 0.
C2cReport one_line(std::uint64_t address) {
    C2cReport r;
    SharedLine l;
    l.address = address;
    l.lcl_hitm = 4;
    l.loads = 4;
    r.lines.push_back(l);
    ParetoLine p;
    p.address = address;
    p.lcl = 4;
    ParetoRow row;
    row.lcl_percent = 100;
    p.rows.push_back(row);
    r.pareto.push_back(p);
    return r;
}

TEST(PerfC2cRunPlacement, UncoveredLayoutsAreKeptOrRefusedAsAsked) {
    const engine::Layout* v60 = engine::find_layout("page_counter", "v6.0");
    ASSERT_NE(v60, nullptr);
    const std::vector<PlacedLayout> placed{{*v60, 0x10000, "root/memory"},
                                           {*v60, 0x20000, std::nullopt}};
    const C2cReport report = one_line(0x10000);

    const ImportedC2c kept = import_report(report, placed, UncoveredLayout::keep);
    ASSERT_TRUE(kept.data);
    ASSERT_EQ(kept.data->objects.size(), 2u);
    EXPECT_EQ(kept.data->objects[0].name, "root/memory");
    EXPECT_EQ(kept.data->objects[1].name, "page_counter@0x20000");
    ASSERT_EQ(kept.data->result.lines.size(), 1u);
    EXPECT_EQ(kept.data->result.lines[0].line.object, 0u);
    ASSERT_EQ(kept.data->result.fields.size(), 1u);
    EXPECT_EQ(kept.data->result.fields[0].field_name, "usage");

    try {
        import_report(report, placed);
        FAIL() << "a user's layout on no line is refused by default";
    } catch (const LayoutPlacementError& e) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr("page_counter at 0x20000"));
        EXPECT_THAT(e.what(), ::testing::HasSubstr("covers no shared line"));
    }
    // Overlaps stay refused either way: two objects cannot own one byte.
    EXPECT_THROW(import_report(report, {{*v60, 0x10000}, {*v60, 0x10008}}, UncoveredLayout::keep),
                 LayoutPlacementError);
}

TEST(PerfC2cRunPlacement, NanSharesOfNoLlcMissIsNoStatistic) {
    const auto stats = [](const std::string& local_dram_share) {
        return section("Trace Event Information") + stat_line("Total records", 0) +
               stat_line("Load Local HITM", 0) + stat_line("Load Remote HITM", 0) +
               stat_line("Load LLC Misses", 0) +
               "  LLC Misses to Local DRAM          :       " + local_dram_share + "\n" +
               "  LLC Misses to Remote DRAM         :        nan%\n" +
               stat_line("Store Operations", 0) + "\n" +
               section("Global Shared Cache Line Event Information") +
               stat_line("Total Shared Cache Lines", 0) + "\n" +
               details_section("cpu-clock", "Total HITMs");
    };
    const C2cReport r = parse_c2c_report(stats("-nan%"));
    EXPECT_EQ(r.trace_stat("Total records"), 0.0);
    EXPECT_EQ(r.trace_stat("Store Operations"), 0.0);
    EXPECT_FALSE(r.trace_stat("LLC Misses to Local DRAM"));
    EXPECT_FALSE(r.trace_stat("LLC Misses to Remote DRAM"));
    // Anything else that is not a percentage is still refused, at its line.
    try {
        parse_c2c_report(stats("inf%"));
        ADD_FAILURE() << "parsed";
    } catch (const C2cParseError& e) {
        EXPECT_EQ(e.line(), 8u);
        EXPECT_EQ(e.reason(), "LLC Misses to Local DRAM 'inf%' is not a percentage");
    }
}

} // namespace
} // namespace hitmap::testing
