// A parsed report as a run's cacheline tables: counts mapped class by class, the Pareto's
// offsets as synthesized fields, a placed layout's field names, and the metrics that keep the
// rest of the text.
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/imported_run.hpp"
#include "collector/perfc2c/report_parser.hpp"
#include "engine/layout/layout_registry.hpp"
#include "tests/support/read_file.hpp"
#include "tests/support/shared_dir.hpp"

#include <gtest/gtest.h>

namespace hitmap::testing {
namespace {

using namespace perfc2c;

std::optional<double> metric(const ImportedC2c& r, const std::string& name) {
    for (const auto& m : r.metrics)
        if (m.name == name) {
            EXPECT_EQ(m.source, store::Source::imported) << name;
            return m.value;
        }
    return std::nullopt;
}

C2cReport amd(const std::filesystem::path& dir) {
    return parse_c2c_report(read_file(dir / "perfgo-false-sharing-amd-ibs-example.txt"));
}

TEST(PerfC2cImport, AmdLineBecomesAnObjectNamedByItsAddress) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const ImportedC2c r = import_report(amd(dir), {});
    ASSERT_TRUE(r.data);
    const store::C2cData& d = *r.data;
    ASSERT_EQ(d.objects.size(), 1u);
    EXPECT_EQ(d.objects[0].name, "0x20ea08034080");
    const engine::Layout& layout = d.objects[0].layout;
    ASSERT_EQ(layout.placement.size(), 2u);
    EXPECT_EQ(layout.field_name(0), "+0x30");
    EXPECT_EQ(layout.at(0).offset, 0x30u);
    EXPECT_EQ(layout.at(0).size, 8u); // up to the next offset
    EXPECT_EQ(layout.field_name(1), "+0x38");
    EXPECT_EQ(layout.at(1).size, 8u); // up to the line's end

    ASSERT_EQ(d.result.lines.size(), 1u);
    const c2c::ClassCounts& c = d.result.lines[0].counts;
    EXPECT_EQ(d.result.lines[0].line.address, 0x20ea08034080u);
    EXPECT_EQ(c.load_hitm, 2096u);
    EXPECT_EQ(c.l1_hit, 1056u);
    EXPECT_EQ(c.clean_forward, 0u);
    EXPECT_EQ(c.cold, 0u);
    EXPECT_EQ(c.loads, 3152u);
    EXPECT_EQ(c.stores, 0u);
    EXPECT_EQ(d.result.totals, c);
    EXPECT_EQ(d.result.records, 9007u);
    EXPECT_EQ(d.trace.format, "perf-c2c-report");

    // 75.00 % of 4 remote + 49.62 % of 2092 local HITMs; 25.00 % + 50.38 %.
    ASSERT_EQ(d.result.fields.size(), 2u);
    EXPECT_EQ(d.result.fields[0].field_name, "+0x30");
    EXPECT_EQ(d.result.fields[0].counts.load_hitm, 3u + 1038u);
    EXPECT_EQ(d.result.fields[0].counts.loads, 1552u); // its records, no stores
    EXPECT_EQ(d.result.fields[1].counts.load_hitm, 1u + 1054u);
    EXPECT_EQ(d.result.fields[1].counts.loads, 1600u);

    EXPECT_EQ(metric(r, "perf_c2c.trace.unable_to_parse_data_source"), 5700);
    EXPECT_EQ(metric(r, "perf_c2c.shared.total_merged_records"), 2096);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x20ea08034080.pa_count"), 1734);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x20ea08034080.records"), 3152);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x20ea08034080.store_na"), 0);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x20ea08034080.row0.rmt_hitm_cycles_mean"), 410);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x20ea08034080.row1.cpu_count"), 10);
    EXPECT_FALSE(metric(r, "perf_c2c.line.0x20ea08034080.llc_load_miss")); // not in this layout
    EXPECT_EQ(metric(r, "perf_c2c.hitm_not_shown"), 0);

    ASSERT_EQ(r.code.size(), 1u);
    EXPECT_EQ(r.code[0]["rows"][0]["symbol"], "[.] github.com/perfgo/perfgo/e");
    EXPECT_EQ(r.code[0]["rows"][1]["code_address"], "0x53dbc8");
    EXPECT_EQ(r.code[0]["rows"][1]["source"], "go.go:0");
}

TEST(PerfC2cImport, Blog2016KeepsTheHitmOfLinesPerfDidNotShow) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const ImportedC2c r =
        import_report(parse_c2c_report(read_file(dir / "joemario-c2c-blog-example-2016.txt")), {});
    ASSERT_TRUE(r.data);
    EXPECT_EQ(r.data->objects.size(), 5u);
    EXPECT_EQ(r.data->result.totals.load_hitm, 16087u);
    EXPECT_EQ(metric(r, "perf_c2c.hitm_not_shown"), 16159 - 16087);
    // Line 0x602180: L1 hits of loads 16154 and stores 109036; DRAM 727 + 2657; remote HIT 529.
    const auto& line = *std::find_if(r.data->result.lines.begin(), r.data->result.lines.end(),
                                     [](const auto& l) { return l.line.address == 0x602180; });
    EXPECT_EQ(line.counts.l1_hit, 16154u + 109036u);
    EXPECT_EQ(line.counts.cold, 727u + 2657u);
    EXPECT_EQ(line.counts.clean_forward, 529u);
    EXPECT_EQ(line.counts.loads, 40400u);
    EXPECT_EQ(line.counts.stores, 109504u);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x602180.llc_load_miss"), 13747);
    EXPECT_EQ(metric(r, "perf_c2c.line.0x602180.store_l1_miss"), 468);
    EXPECT_FALSE(metric(r, "perf_c2c.line.0x602180.pa_count"));
}

TEST(PerfC2cImport, PlacedLayoutNamesTheFields) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const engine::Layout* v60 = engine::find_layout("page_counter", "v6.0");
    ASSERT_NE(v60, nullptr);
    // The struct starts 16 bytes before the line: +0x30 is byte 64 (elow), +0x38 byte 72
    // (low_usage).
    const ImportedC2c r = import_report(amd(dir), {{*v60, 0x20ea08034070}});
    ASSERT_TRUE(r.data);
    ASSERT_EQ(r.data->objects.size(), 1u);
    EXPECT_EQ(r.data->objects[0].name, "page_counter@0x20ea08034070");
    EXPECT_EQ(r.data->objects[0].phase, 0x30u);
    ASSERT_EQ(r.data->result.lines.size(), 1u);
    EXPECT_EQ(r.data->result.lines[0].line.index, 1u); // the struct's second line
    ASSERT_EQ(r.data->result.fields.size(), 2u);
    EXPECT_EQ(r.data->result.fields[0].field_name, "elow");
    EXPECT_EQ(r.data->result.fields[1].field_name, "low_usage");
    EXPECT_EQ(r.data->result.fields[1].size, 8u);
    EXPECT_TRUE(r.notes.empty());

    EXPECT_THROW(import_report(amd(dir), {{*v60, 0x1000}}), LayoutPlacementError);
    EXPECT_THROW(import_report(amd(dir), {{*v60, 0x20ea08034070}, {*v60, 0x20ea08034080}}),
                 LayoutPlacementError);
}

TEST(PerfC2cImport, StatsOnlyHasMetricsAndNoTables) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const ImportedC2c r = import_report(
        parse_c2c_report(read_file(dir / "redhatperf-type-pollution-stats-only.txt")), {});
    EXPECT_FALSE(r.data);
    EXPECT_EQ(metric(r, "perf_c2c.trace.load_local_hitm"), 19);
    EXPECT_EQ(metric(r, "perf_c2c.trace.llc_misses_to_local_dram"), 100.0);
    EXPECT_EQ(metric(r, "perf_c2c.shared.total_shared_cache_lines"), 4);
}

} // namespace
} // namespace hitmap::testing
