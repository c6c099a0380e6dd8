// The perf c2c report parser: the real reports in ../shared/fixtures/c2c/ read column by column
// against the text, the other perf outputs there refused by name, and synthetic reports for
// what the fixtures lack (a malformed row, an unknown section, peer mode, ~2020 --stats).
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/report_parser.hpp"
#include "tests/perfc2c/c2c_text.hpp"
#include "tests/support/read_file.hpp"
#include "tests/support/shared_dir.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>

namespace hitmap::testing {
namespace {

using namespace perfc2c;

std::uint64_t table_hitm(const C2cReport& r) {
    return std::accumulate(r.lines.begin(), r.lines.end(), std::uint64_t{0},
                           [](std::uint64_t s, const SharedLine& l) { return s + l.hitm(); });
}

// The shared lines' HITMs as the text states them: Total Merged records = HITMs + stores on
// shared lines (reference/c2c.md §1.4.2).
std::uint64_t stated_shared_hitm(const C2cReport& r) {
    return static_cast<std::uint64_t>(*r.shared_stat("Total Merged records") -
                                      *r.shared_stat("Store HITs on shared lines"));
}

std::size_t line_of(const std::string& text, const std::string& what) {
    const std::size_t at = text.find(what);
    return static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
}

C2cReport fixture(const std::filesystem::path& dir, const char* name) {
    return parse_c2c_report(read_file(dir / name));
}

TEST(PerfC2cFixtures, Blog2016ReadsEveryColumnOfTheTopLines) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const C2cReport r = fixture(dir, "joemario-c2c-blog-example-2016.txt");
    EXPECT_EQ(r.layout, PerfLayout::v2016);
    EXPECT_EQ(r.vendor, Vendor::intel);
    EXPECT_FALSE(r.peer_mode);
    EXPECT_FALSE(r.stats_only);
    EXPECT_TRUE(r.notes.empty());
    EXPECT_EQ(r.trace.size(), 30u);
    EXPECT_EQ(r.trace_stat("Total records"), 329219);
    EXPECT_EQ(r.trace_stat("LLC Misses to Remote cache (HITM)"), 57.3);
    EXPECT_EQ(r.trace_stat("Unable to parse data source"), 1);
    EXPECT_EQ(r.shared_stat("Total Shared Cache Lines"), 55);
    EXPECT_EQ(r.shared_stat("Total Merged records"), 126112);
    EXPECT_EQ(r.details.events,
              (std::vector<std::string>{"cpu/mem-loads,ldlat=30/P", "cpu/mem-stores/P"}));
    EXPECT_EQ(r.details.sort_on, "Remote HITMs");
    EXPECT_EQ(r.details.grouping, "offset,pid,iaddr");

    // Load Local HITM 3402 + Load Remote HITM 12757, and Merged - Store HITs on shared lines.
    EXPECT_EQ(r.total_hitm(), 16159u);
    EXPECT_EQ(stated_shared_hitm(r), 16159u);
    // Five of the 55 lines are shown (perf hides lines under its display limit).
    ASSERT_EQ(r.lines.size(), 5u);
    EXPECT_EQ(table_hitm(r), 16087u);

    // "0  0x602180  149904  77.09%  12103  2269  9834  109504  109036  468  727  2657  13747
    //  40400  5355  16154  0  2875  529"
    const SharedLine& l0 = r.lines[0];
    EXPECT_EQ(l0.line, 65u);
    EXPECT_EQ(l0.index, 0u);
    EXPECT_EQ(l0.address, 0x602180u);
    EXPECT_FALSE(l0.node);
    EXPECT_FALSE(l0.pa_count);
    EXPECT_EQ(l0.records, 149904u);
    EXPECT_DOUBLE_EQ(l0.costly_percent, 77.09);
    EXPECT_EQ(l0.hitm(), 12103u);
    EXPECT_EQ(l0.lcl_hitm, 2269u);
    EXPECT_EQ(l0.rmt_hitm, 9834u);
    EXPECT_EQ(l0.stores, 109504u);
    EXPECT_EQ(l0.store_l1_hit, 109036u);
    EXPECT_EQ(l0.store_l1_miss, 468u);
    EXPECT_FALSE(l0.store_na);
    EXPECT_EQ(l0.dram_lcl, 727u);
    EXPECT_EQ(l0.dram_rmt, 2657u);
    EXPECT_EQ(l0.llc_miss, 13747u);
    EXPECT_EQ(l0.loads, 40400u);
    EXPECT_EQ(l0.fill_buffer_hit, 5355u);
    EXPECT_EQ(l0.l1_hit, 16154u);
    EXPECT_EQ(l0.l2_hit, 0u);
    EXPECT_EQ(l0.llc_hit, 2875u);
    EXPECT_EQ(l0.rmt_hit, 529u);
    // "1  0x602100  12128  22.20%  3951  1119  2832  0  0  0  65  200  3749  12128  5096  108  0
    //  2056  652"
    const SharedLine& l1 = r.lines[1];
    EXPECT_EQ(l1.address, 0x602100u);
    EXPECT_EQ(l1.records, 12128u);
    EXPECT_DOUBLE_EQ(l1.costly_percent, 22.20);
    EXPECT_EQ(l1.lcl_hitm, 1119u);
    EXPECT_EQ(l1.rmt_hitm, 2832u);
    EXPECT_EQ(l1.stores, 0u);
    EXPECT_EQ(l1.dram_lcl, 65u);
    EXPECT_EQ(l1.dram_rmt, 200u);
    EXPECT_EQ(l1.llc_miss, 3749u);
    EXPECT_EQ(l1.loads, 12128u);
    EXPECT_EQ(l1.fill_buffer_hit, 5096u);
    EXPECT_EQ(l1.l1_hit, 108u);
    EXPECT_EQ(l1.llc_hit, 2056u);
    EXPECT_EQ(l1.rmt_hit, 652u);
    EXPECT_EQ(r.lines[2].address, 0xffff883ffb6a7e80u);

    ASSERT_EQ(r.pareto.size(), 5u);
    const ParetoLine& p0 = r.pareto[0];
    EXPECT_EQ(p0.address, 0x602180u);
    EXPECT_EQ(p0.rmt, 9834u);
    EXPECT_EQ(p0.lcl, 2269u);
    EXPECT_EQ(p0.store_l1_hit, 109036u);
    EXPECT_EQ(p0.store_l1_miss, 468u);
    ASSERT_EQ(p0.rows.size(), 6u);
    // "65.51%  55.88%  75.20%  0.00%  0x0  14604  0x400b4f  27161  26039  26017  9
    //  [.] read_write_func  no_false_sharing.exe  false_sharing_example.c:144  0{0-1,4} ..."
    const ParetoRow& row = p0.rows[0];
    EXPECT_DOUBLE_EQ(row.rmt_percent, 65.51);
    EXPECT_DOUBLE_EQ(row.lcl_percent, 55.88);
    EXPECT_DOUBLE_EQ(row.store_l1_hit_percent, 75.20);
    EXPECT_DOUBLE_EQ(row.store_l1_miss_percent, 0);
    EXPECT_EQ(row.offset, 0u);
    EXPECT_EQ(row.pid, "14604");
    EXPECT_EQ(row.code_address, 0x400b4fu);
    EXPECT_EQ(row.rmt_cycles, 27161u);
    EXPECT_EQ(row.lcl_cycles, 26039u);
    EXPECT_EQ(row.load_cycles, 26017u);
    EXPECT_FALSE(row.records);
    EXPECT_EQ(row.cpu_count, 9u);
    EXPECT_EQ(row.symbol, "[.] read_write_func");
    EXPECT_EQ(row.object, "no_false_sharing.exe");
    EXPECT_EQ(row.source, "false_sharing_example.c:144");
    EXPECT_EQ(row.node, "0{0-1,4}  1{24-25,120}  2{48,54}  3{169}");
    EXPECT_EQ(p0.rows[5].offset, 0x30u);
    // A kernel symbol wider than its column.
    EXPECT_EQ(r.pareto[2].rows[1].symbol, "[k] update_cfs_rq_blocked_load");
    EXPECT_EQ(r.pareto[2].rows[1].source, "atomic64_64.h:45");
    EXPECT_EQ(r.pareto[4].rows.size(), 11u);
}

TEST(PerfC2cFixtures, AmdIbsReadsEveryColumnOfItsLineAndRows) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const C2cReport r = fixture(dir, "perfgo-false-sharing-amd-ibs-example.txt");
    EXPECT_EQ(r.layout, PerfLayout::current);
    EXPECT_EQ(r.vendor, Vendor::amd);
    EXPECT_FALSE(r.peer_mode);
    EXPECT_EQ(r.trace_stat("Unable to parse data source"), 5700);
    EXPECT_EQ(r.shared_stat("Load hits on peer cache or nodes"), 0);
    EXPECT_EQ(r.details.events, std::vector<std::string>{"ibs_op/ldlat=0/"});
    EXPECT_EQ(r.total_hitm(), 2096u);
    EXPECT_EQ(stated_shared_hitm(r), 2096u);
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(table_hitm(r), 2096u);
    // "0  0x20ea08034080  0  1734  100.00%  2096  2092  4  3152  3152  0  0  0  0  0  1056  0
    //  0  2092  0  4  0  0"
    const SharedLine& l = r.lines[0];
    EXPECT_EQ(l.address, 0x20ea08034080u);
    EXPECT_EQ(l.node, "0");
    EXPECT_EQ(l.pa_count, 1734u);
    EXPECT_DOUBLE_EQ(l.costly_percent, 100.0);
    EXPECT_EQ(l.lcl_hitm, 2092u);
    EXPECT_EQ(l.rmt_hitm, 4u);
    EXPECT_EQ(l.records, 3152u);
    EXPECT_EQ(l.loads, 3152u);
    EXPECT_EQ(l.stores, 0u);
    EXPECT_EQ(l.store_l1_hit, 0u);
    EXPECT_EQ(l.store_l1_miss, 0u);
    EXPECT_EQ(l.store_na, 0u);
    EXPECT_EQ(l.fill_buffer_hit, 0u);
    EXPECT_EQ(l.l1_hit, 1056u);
    EXPECT_EQ(l.l2_hit, 0u);
    EXPECT_EQ(l.llc_hit, 0u);
    EXPECT_EQ(l.rmt_hit, 0u);
    EXPECT_EQ(l.dram_lcl, 0u);
    EXPECT_EQ(l.dram_rmt, 0u);
    EXPECT_FALSE(l.llc_miss);

    ASSERT_EQ(r.pareto.size(), 1u);
    const ParetoLine& p = r.pareto[0];
    EXPECT_EQ(p.rmt, 4u);
    EXPECT_EQ(p.lcl, 2092u);
    EXPECT_EQ(p.store_na, 0u);
    ASSERT_EQ(p.rows.size(), 2u);
    // "75.00%  49.62%  0.00%  0.00%  0.00%  0x30  0  1  0x53dc88  410  75  0  1552  12
    //  [.] github.com/perfgo/perfgo/e  perfgo.test.linux.amd64  go.go:0  0"
    const ParetoRow& a = p.rows[0];
    EXPECT_DOUBLE_EQ(a.rmt_percent, 75.0);
    EXPECT_DOUBLE_EQ(a.lcl_percent, 49.62);
    EXPECT_EQ(a.store_na_percent, 0.0);
    EXPECT_EQ(a.offset, 0x30u);
    EXPECT_EQ(a.offset_node, "0");
    EXPECT_EQ(a.pa_count, 1u);
    EXPECT_EQ(a.code_address, 0x53dc88u);
    EXPECT_EQ(a.rmt_cycles, 410u);
    EXPECT_EQ(a.lcl_cycles, 75u);
    EXPECT_EQ(a.load_cycles, 0u);
    EXPECT_EQ(a.records, 1552u);
    EXPECT_EQ(a.cpu_count, 12u);
    EXPECT_EQ(a.symbol, "[.] github.com/perfgo/perfgo/e");
    EXPECT_EQ(a.object, "perfgo.test.linux.amd64");
    EXPECT_EQ(a.source, "go.go:0");
    EXPECT_EQ(a.node, "0");
    const ParetoRow& b = p.rows[1];
    EXPECT_DOUBLE_EQ(b.rmt_percent, 25.0);
    EXPECT_DOUBLE_EQ(b.lcl_percent, 50.38);
    EXPECT_EQ(b.offset, 0x38u);
    EXPECT_EQ(b.code_address, 0x53dbc8u);
    EXPECT_EQ(b.rmt_cycles, 0u);
    EXPECT_EQ(b.records, 1600u);
    EXPECT_EQ(b.cpu_count, 10u);
}

// An editor's UTF-8 byte order mark before the first rule hid the Trace Event Information title,
// and the report was refused as not one.
TEST(PerfC2cFixtures, AByteOrderMarkBeforeTheReportIsSkipped) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const std::string text = read_file(dir / "perfgo-false-sharing-amd-ibs-example.txt");
    const C2cReport r = parse_c2c_report("\xEF\xBB\xBF" + text);
    EXPECT_EQ(r.total_hitm(), 2096u);
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].address, 0x20ea08034080u);
    EXPECT_TRUE(r.notes.empty());
}

TEST(PerfC2cFixtures, StatsOnlyReportHasTotalsAndNoLines) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const C2cReport r = fixture(dir, "redhatperf-type-pollution-stats-only.txt");
    EXPECT_TRUE(r.stats_only);
    EXPECT_EQ(r.layout, PerfLayout::current);
    EXPECT_EQ(r.vendor, Vendor::intel);
    EXPECT_TRUE(r.lines.empty());
    EXPECT_EQ(r.details.events.size(), 3u);
    EXPECT_EQ(r.details.events[2], "dummy:HG");
    EXPECT_EQ(r.total_hitm(), 19u);
    EXPECT_EQ(stated_shared_hitm(r), 19u);
    EXPECT_EQ(r.shared_stat("Store L1D hits on shared lines"), 1556);
}

TEST(PerfC2cFixtures, OtherPerfOutputsAreRefusedByName) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const std::pair<const char*, const char*> refused[] = {
        {"joemario-perf-c2c-usage-2016.txt", "perf c2c usage text"},
        {"kernel-doc-perf-amd-ibs-perf-mem-report-example.txt", "perf mem report output"},
        {"lkml-2024-08-zixian-cai-perf-evlist-v-mem-record-adl.txt", "perf evlist -v output"},
        {"lkml-2024-08-zixian-cai-perf-script-mem-loads-adl.txt", "perf script output"},
    };
    for (const auto& [name, what] : refused) {
        SCOPED_TRACE(name);
        try {
            fixture(dir, name);
            ADD_FAILURE() << "parsed";
        } catch (const NotAC2cReport& e) {
            EXPECT_TRUE(std::string(e.what()).starts_with(what)) << e.what();
            EXPECT_NE(std::string(e.what()).find("not a perf c2c report"), std::string::npos);
        }
    }
}

// The first `n` lines of `text`.
std::string first_lines(const std::string& text, std::size_t n) {
    std::size_t end = 0;
    for (std::size_t k = 0; k < n; ++k)
        end = text.find('\n', end) + 1;
    return text.substr(0, end);
}

// A copy cut after its sixth line imported as "HITM 0": the Trace Event Information had only its
// first three statistics, and every count the text did not reach was stored as a zero.
TEST(PerfC2cFixtures, AReportCutAfterSixLinesIsRefusedWhereItEnds) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    const std::string text = read_file(dir / "perfgo-false-sharing-amd-ibs-example.txt");
    try {
        parse_c2c_report(first_lines(text, 6));
        FAIL() << "parsed";
    } catch (const C2cParseError& e) {
        EXPECT_EQ(e.line(), 6u);
        EXPECT_EQ(e.reason(), "the report ends before its Global Shared Cache Line Event "
                              "Information section: it is cut off");
    }
}

// Cut at any line before its last Pareto banner, each real report is refused, but where it reads
// as the --stats report it starts with: only the rows of its last line's block can go unnoticed,
// as perf prints nothing after them.
TEST(PerfC2cFixtures, EveryCutBeforeTheLastParetoBannerIsRefused) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/c2c");
    for (const char* name :
         {"perfgo-false-sharing-amd-ibs-example.txt", "joemario-c2c-blog-example-2016.txt"}) {
        SCOPED_TRACE(name);
        const std::string text = read_file(dir / name);
        const C2cReport whole = parse_c2c_report(text);
        ASSERT_FALSE(whole.pareto.empty());
        const std::size_t last_banner = whole.pareto.back().line;
        // The details' last line, and the blank line after it.
        const std::size_t stats_end = line_of(text, "Cacheline data grou");
        for (std::size_t n = 1; n <= last_banner; ++n) {
            SCOPED_TRACE(n);
            const std::string cut = first_lines(text, n);
            if (n == stats_end || n == stats_end + 1) {
                EXPECT_TRUE(parse_c2c_report(cut).stats_only);
                continue;
            }
            try {
                parse_c2c_report(cut);
                ADD_FAILURE() << "parsed";
            } catch (const C2cParseError&) {
            } catch (const NotAC2cReport&) { // cut before its first section's title
                EXPECT_LT(n, 3u);
            }
        }
    }
}

// ---- synthetic reports --------------------------------------------------------------------

std::string trace_section(bool current) {
    std::string s = section("Trace Event Information") +
                    "  Total records                     :       1000\n"
                    "  Load Operations                   :        600\n"
                    "  Load Local HITM                   :         30\n"
                    "  Load Remote HITM                  :         12\n";
    if (current)
        s += "  Store No available memory level   :          0\n";
    return s + "\n";
}

// Two shared lines of 42 HITMs and 100 stores in all.
std::string shared_section() {
    return section("Global Shared Cache Line Event Information") +
           stat_line("Total Shared Cache Lines", 2) + stat_line("Store HITs on shared lines", 100) +
           stat_line("Total Merged records", 142) + "\n";
}

const std::string kHitmRow0 = "      0      0x7f0000001000     0       2   71.43%       30       "
                              "20       10      100       80       20       15        5        0  "
                              "      5       20        0        20       20        3       10     "
                              "   2        0\n";
const std::string kHitmRow1 = "      1      0x7f0000002000     0       1   28.57%       12       "
                              "10        2       40       40        0        0        0        0  "
                              "      0       20        0         8       10        0        2     "
                              "   0        0\n";

// The Pareto blocks of kHitmRow0 and kHitmRow1: a row each, at offset 0.
const std::string kHitmBlock0 =
    "  ----------------------------------------------------------------------\n"
    "      0       10       20       15        5        0      0x7f0000001000\n"
    "  ----------------------------------------------------------------------\n"
    "         100.00%  100.00%  100.00%  100.00%    0.00%                 0x0     0       1  "
    "          0x401000       310       120        95      100         4  [.] f  bench  "
    "bench.c:1  0\n\n";
const std::string kHitmBlock1 =
    "  ----------------------------------------------------------------------\n"
    "      1        2       10        0        0        0      0x7f0000002000\n"
    "  ----------------------------------------------------------------------\n"
    "         100.00%  100.00%    0.00%    0.00%    0.00%                 0x0     0       1  "
    "          0x401010       300       110        90       40         2  [.] g  bench  "
    "bench.c:2  0\n\n";

// The statistics sections, then `extra_section`.
std::string hitm_stats(const std::string& extra_section = "") {
    return trace_section(true) + shared_section() +
           details_section("cpu/mem-loads,ldlat=30/P", "Total HITMs") + extra_section;
}

std::string hitm_table(const std::string& row0) {
    return section("Shared Data Cache Line Table") + current_table_header() + row0 + kHitmRow1 +
           "\n";
}

std::string hitm_pareto(const std::string& blocks) {
    return section("Shared Cache Line Distribution Pareto") + current_pareto_header() + blocks;
}

std::string hitm_report(const std::string& row0, const std::string& extra_section = "") {
    return hitm_stats(extra_section) + hitm_table(row0) + hitm_pareto(kHitmBlock0 + kHitmBlock1);
}

TEST(PerfC2cSynthetic, CurrentHitmTableReadsFromItsHeader) {
    const C2cReport r = parse_c2c_report(hitm_report(kHitmRow0));
    EXPECT_EQ(r.layout, PerfLayout::current);
    ASSERT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.lines[0].address, 0x7f0000001000u);
    EXPECT_EQ(r.lines[0].lcl_hitm, 20u);
    EXPECT_EQ(r.lines[0].rmt_hitm, 10u);
    EXPECT_EQ(r.lines[0].store_l1_hit, 15u);
    EXPECT_EQ(r.lines[0].store_l1_miss, 5u);
    EXPECT_EQ(r.lines[0].llc_hit, 20u);
    EXPECT_EQ(r.lines[0].rmt_hit, 3u);
    EXPECT_EQ(r.lines[0].dram_lcl, 2u);
    EXPECT_EQ(r.lines[1].hitm(), 12u);
    EXPECT_EQ(r.total_hitm(), 42u);
}

TEST(PerfC2cSynthetic, MalformedRowNamesItsLine) {
    std::string bad = kHitmRow0;
    bad.replace(bad.find("    15 "), 7, "   1x5 ");
    const std::string text = hitm_report(bad);
    try {
        parse_c2c_report(text);
        FAIL() << "parsed";
    } catch (const C2cParseError& e) {
        EXPECT_EQ(e.line(), line_of(text, "0x7f0000001000"));
        EXPECT_EQ(e.reason(), "Stores L1Hit '1x5' is not a count");
    }
    // A row one value short.
    const std::string short_row = kHitmRow0.substr(0, kHitmRow0.rfind(' ')) + "\n";
    const std::string text2 = hitm_report(short_row);
    try {
        parse_c2c_report(text2);
        FAIL() << "parsed";
    } catch (const C2cParseError& e) {
        EXPECT_EQ(e.line(), line_of(text2, "0x7f0000001000"));
        EXPECT_NE(e.reason().find("has 22 values, its header 23 columns"), std::string::npos)
            << e.reason();
    }
    // A table total that contradicts its parts.
    std::string inconsistent = kHitmRow0;
    inconsistent.replace(inconsistent.find("     30 "), 8, "     31 ");
    EXPECT_THROW(parse_c2c_report(hitm_report(inconsistent)), C2cParseError);
}

TEST(PerfC2cSynthetic, UnknownSectionIsANoteAndTheRestIsRead) {
    const std::string ranges = section("Memory Ranges") + "  0x7f0000000000-0x7f0000100000 mem\n\n";
    const std::string text = hitm_report(kHitmRow0, ranges);
    const C2cReport r = parse_c2c_report(text);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_EQ(r.notes[0].line, line_of(text, "Memory Ranges"));
    EXPECT_EQ(r.notes[0].text, "section 'Memory Ranges' is not imported");
    EXPECT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.total_hitm(), 42u);
}

TEST(PerfC2cSynthetic, Stats2020WithoutBlockedOrPeerLines) {
    const std::string text = trace_section(false) + shared_section() +
                             details_section("cpu/mem-loads,ldlat=30/P", "Total HITMs");
    const C2cReport r = parse_c2c_report(text);
    EXPECT_TRUE(r.stats_only);
    EXPECT_EQ(r.layout, PerfLayout::v2020);
    EXPECT_EQ(stated_shared_hitm(r), r.total_hitm());
}

// Arm SPE (reference/c2c.md §1.4.4): lines ranked by "Peer Snoop", "Load Peer" counts instead
// of "Load Hitm", and a Pareto of "Peer Snoop" percentages and peer cycles.
std::string peer_report() {
    const std::string table =
        current_table_header(true) +
        "      0      0xffff000010c0     0       3   80.00%       50       20       30      400  "
        "    300      100        0        0      100       10      150        5        60        "
        "0       70        0         5        0\n\n";
    const std::string pareto =
        current_pareto_header(true) +
        "  ----------------------------------------------------------------------\n"
        "      0       30       20        0        0      100      0xffff000010c0\n"
        "  ----------------------------------------------------------------------\n"
        "          60.00%   50.00%    0.00%    0.00%   40.00%               0x8     0       1  "
        "    0xaaaa00400a10       310       120        95      160         4  [.] worker_loop  "
        " bench  bench.c:42  0\n"
        "          40.00%   50.00%    0.00%    0.00%   60.00%              0x10     0       1  "
        "    0xaaaa00400a40       290       110        90      240         4  [.] worker_loop  "
        " bench  bench.c:47  0\n\n";
    return trace_section(true) + shared_section() +
           details_section(
               "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=30/",
               "Peer Snoop") +
           section("Shared Data Cache Line Table") + table +
           section("Shared Cache Line Distribution Pareto") + pareto;
}

TEST(PerfC2cSynthetic, PeerModeArmSpe) {
    const C2cReport r = parse_c2c_report(peer_report());
    EXPECT_TRUE(r.peer_mode);
    EXPECT_EQ(r.vendor, Vendor::arm);
    EXPECT_EQ(r.layout, PerfLayout::current);
    ASSERT_EQ(r.lines.size(), 1u);
    const SharedLine& l = r.lines[0];
    EXPECT_DOUBLE_EQ(l.costly_percent, 80.0);
    EXPECT_EQ(l.lcl_peer, 20u);
    EXPECT_EQ(l.rmt_peer, 30u);
    EXPECT_EQ(l.hitm(), 0u); // no HITM on Arm: LLC LclHitm and RMT RmtHitm are 0
    EXPECT_EQ(l.store_na, 100u);
    EXPECT_EQ(l.rmt_hit, 70u);
    ASSERT_EQ(r.pareto.size(), 1u);
    EXPECT_EQ(r.pareto[0].rmt, 30u);
    EXPECT_EQ(r.pareto[0].lcl, 20u);
    ASSERT_EQ(r.pareto[0].rows.size(), 2u);
    const ParetoRow& row = r.pareto[0].rows[1];
    EXPECT_DOUBLE_EQ(row.rmt_percent, 40.0);
    EXPECT_EQ(row.store_na_percent, 60.0);
    EXPECT_EQ(row.offset, 0x10u);
    EXPECT_EQ(row.rmt_cycles, 290u);
    EXPECT_EQ(row.lcl_cycles, 110u);
    EXPECT_EQ(row.records, 240u);
    EXPECT_EQ(row.symbol, "[.] worker_loop");
    EXPECT_EQ(row.source, "bench.c:47");
}

TEST(PerfC2cSynthetic, ParetoRowOutsideABannerIsRefused) {
    std::string text = peer_report();
    // Drop the banner and its rules: the rows then belong to no line.
    const std::size_t banner = text.find("\n  -----") + 1;
    text.erase(banner, text.find("          60.00%") - banner);
    try {
        parse_c2c_report(text);
        FAIL() << "parsed";
    } catch (const C2cParseError& e) {
        EXPECT_EQ(e.line(), line_of(text, "          60.00%"));
        EXPECT_EQ(e.reason(), "a Pareto row before any line banner");
    }
}

TEST(PerfC2cSynthetic, MailQuotedAndCrlfTextReads) {
    std::string quoted;
    const std::string text = hitm_report(kHitmRow0);
    for (std::size_t b = 0; b < text.size();) {
        const std::size_t e = text.find('\n', b);
        quoted += "> " + text.substr(b, e - b) + "\r\n";
        b = e + 1;
    }
    const C2cReport r = parse_c2c_report(quoted);
    EXPECT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.lines[0].hitm(), 30u);
}

// C2cParseError's line and reason for `text`, or {0, ""} when it parses.
std::pair<std::size_t, std::string> refusal(const std::string& text) {
    try {
        parse_c2c_report(text);
    } catch (const C2cParseError& e) {
        return {e.line(), e.reason()};
    }
    return {0, ""};
}

// perf prints a Pareto block for each line of the table, in the table's order; a Pareto of other
// lines, or of fewer, was taken.
TEST(PerfC2cSynthetic, ParetoBlocksAreTheTablesLinesInOrder) {
    const std::string swapped =
        hitm_stats() + hitm_table(kHitmRow0) + hitm_pareto(kHitmBlock1 + kHitmBlock0);
    EXPECT_EQ(refusal(swapped),
              std::pair(line_of(swapped, "      1        2       10"),
                        std::string("the Pareto's block 0 is line 1 at 0x7f0000002000, not the "
                                    "table's line 0 at 0x7f0000001000")));

    const std::string cut = hitm_stats() + hitm_table(kHitmRow0) + hitm_pareto(kHitmBlock0);
    EXPECT_EQ(refusal(cut), std::pair(line_of(cut, "bench.c:1"),
                                      std::string("the report ends after the Pareto of 1 of the "
                                                  "table's 2 lines: it is cut off")));

    std::string block2 = kHitmBlock1;
    block2.replace(block2.find("      1        2"), 16, "      2        2");
    block2.replace(block2.find("0x7f0000002000"), 14, "0x7f0000003000");
    const std::string extra = hitm_report(kHitmRow0) + block2;
    EXPECT_EQ(refusal(extra), std::pair(line_of(extra, "      2        2"),
                                        std::string("Pareto line 2 at 0x7f0000003000 is not in the "
                                                    "Shared Data Cache Line Table (2 lines)")));
}

// A report's sections are all there, or it is cut off: each of these was imported with what it
// lacked as zeros.
TEST(PerfC2cSynthetic, AReportWithoutASectionPerfAlwaysPrintsIsCutOff) {
    const std::string no_pareto = hitm_stats() + hitm_table(kHitmRow0);
    EXPECT_EQ(refusal(no_pareto),
              std::pair(line_of(no_pareto, "0x7f0000002000"),
                        std::string("the report ends before its Shared Cache Line Distribution "
                                    "Pareto section: it is cut off")));

    const std::string no_details = trace_section(true) + shared_section();
    EXPECT_EQ(refusal(no_details).second,
              "the report ends before its c2c details section: it is cut off");

    // Cut inside the details, before the line a --stats report ends with.
    const std::string events_only = trace_section(true) + shared_section() +
                                    section("c2c details") +
                                    "  Events                            : ibs_op//\n";
    EXPECT_EQ(refusal(events_only),
              std::pair(line_of(events_only, "c2c details"),
                        std::string("the c2c details section has no 'Cacheline data grouping' "
                                    "line")));

    // Statistics perf prints in every version, without which the import counted no HITM.
    std::string no_hitm = hitm_report(kHitmRow0);
    const std::size_t hitm_line = no_hitm.find("  Load Local HITM");
    no_hitm.erase(hitm_line, no_hitm.find('\n', hitm_line) + 1 - hitm_line);
    EXPECT_EQ(refusal(no_hitm),
              std::pair(std::size_t{2}, std::string("the Trace Event Information section has no "
                                                    "'Load Local HITM' line")));

    const std::string pareto_only = hitm_stats() + hitm_pareto(kHitmBlock0 + kHitmBlock1);
    EXPECT_EQ(refusal(pareto_only),
              std::pair(line_of(pareto_only, "Distribution Pareto"),
                        std::string("a Shared Cache Line Distribution Pareto section without a "
                                    "Shared Data Cache Line Table section")));
}

// A run holds kMaxSharedLines objects: a table of more lines is refused at the first line too
// many while it is read, not after the whole report was parsed and mapped.
TEST(PerfC2cSynthetic, ATableOfMoreLinesThanARunHoldsIsRefusedAtTheFirstLineTooMany) {
    const std::string text = synthetic_report(kMaxSharedLines + 1, 1);
    const std::string first_too_many =
        fmt::format("  {:>5}  {:>#18x}", kMaxSharedLines, 0x7f0000000000u + 64 * kMaxSharedLines);
    EXPECT_EQ(refusal(text), std::pair(line_of(text, first_too_many),
                                       std::string("more than 65536 shared lines, the most a run "
                                                   "holds (perf prints this many only with "
                                                   "--show-all)")));
}

TEST(PerfC2cSynthetic, TextWithoutSectionsIsNotAReport) {
    EXPECT_THROW(parse_c2c_report("hello\nworld\n"), NotAC2cReport);
    EXPECT_THROW(parse_c2c_report(""), NotAC2cReport);
    EXPECT_THROW(parse_c2c_report(std::string("\xff\xfe"
                                              "a\0b\0",
                                              6)),
                 C2cTextEncodingError);
}

} // namespace
} // namespace hitmap::testing
