// `import perf-c2c` end to end: every report in ../shared/fixtures/c2c/ stored with the text's
// HITM totals, the other perf outputs there refused, a bad row refused with its line and
// nothing stored, unknown sections noted, and a placed layout naming the fields.
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "tests/cli/cli_test_support.hpp"
#include "tests/support/read_file.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace hitmap::testing {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

std::optional<double> metric(store::Database& db, std::int64_t run, const std::string& name) {
    for (const auto& m : db.metrics(run))
        if (m.name == name) {
            EXPECT_EQ(m.source, store::Source::imported) << name;
            return m.value;
        }
    return std::nullopt;
}

std::size_t run_count(const std::filesystem::path& db) {
    auto s = store::Database::open(db);
    return s.runs().size();
}

std::int64_t import_json(const std::vector<std::string>& args, const TempDir& dir,
                         nlohmann::json* printed = nullptr) {
    std::vector<std::string> all = {"import", "perf-c2c"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--json");
    const CliResult r = run_cli(all, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    if (r.status != 0)
        return 0;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    if (printed)
        *printed = j.at("runs").at(0);
    return j.at("runs").at(0).at("id").get<std::int64_t>();
}

// The 2016 example of ../shared/fixtures/c2c imported as run 1 of a new database in `dir`: its
// path, or empty when the import failed.
std::string import_2016_example(const std::filesystem::path& fixtures, const TempDir& dir) {
    const std::string db = (dir / "c2c.db").string();
    return import_json({(fixtures / "joemario-c2c-blog-example-2016.txt").string(), "--db", db},
                       dir) == 0
               ? std::string()
               : db;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

TEST(CliPerfC2c, EveryReportFixtureStoresTheTextsHitmTotals) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const auto db = dir / "c2c.db";
    struct Expected {
        const char* file;
        const char* layout;
        const char* vendor;
        std::uint64_t hitm;       // Load Local HITM + Load Remote HITM
        std::uint64_t shown_hitm; // the table's lines
        std::size_t lines;
    };
    const Expected reports[] = {
        {"joemario-c2c-blog-example-2016.txt", "2016 layout", "Intel", 16159, 16087, 5},
        {"perfgo-false-sharing-amd-ibs-example.txt", "current layout", "AMD", 2096, 2096, 1},
        {"redhatperf-type-pollution-stats-only.txt", "current layout", "Intel", 19, 0, 0},
    };
    for (const Expected& e : reports) {
        SCOPED_TRACE(e.file);
        nlohmann::json printed;
        const std::int64_t id =
            import_json({(fixtures / e.file).string(), "--db", db.string()}, dir, &printed);
        ASSERT_NE(id, 0);
        EXPECT_EQ(printed.at("layout"), e.layout);
        EXPECT_EQ(printed.at("vendor"), e.vendor);
        EXPECT_EQ(printed.at("hitm"), e.hitm);
        EXPECT_EQ(printed.at("lines_shown"), e.lines);

        auto s = store::Database::open(db);
        const auto run = s.run(id);
        ASSERT_TRUE(run);
        EXPECT_EQ(run->source, store::Source::imported);
        EXPECT_EQ(run->c2c_source, store::C2cSource::perf_c2c);
        EXPECT_NE(run->c2c_reason->find(e.file), std::string::npos) << *run->c2c_reason;
        EXPECT_NE(run->c2c_reason->find(e.layout), std::string::npos) << *run->c2c_reason;
        EXPECT_FALSE(run->threads);
        // The text's own statement of the shared lines' HITMs: Total Merged records minus
        // Store HITs on shared lines, and Load Local + Remote HITM.
        const double merged = *metric(s, id, "perf_c2c.shared.total_merged_records");
        const double shared_stores = *metric(s, id, "perf_c2c.shared.store_hits_on_shared_lines");
        const double lcl = *metric(s, id, "perf_c2c.trace.load_local_hitm");
        const double rmt = *metric(s, id, "perf_c2c.trace.load_remote_hitm");
        EXPECT_EQ(merged - shared_stores, e.hitm);
        EXPECT_EQ(lcl + rmt, e.hitm);

        const auto c2c = store::read_c2c(s, id);
        if (e.lines == 0) {
            EXPECT_FALSE(c2c); // --stats: no line table
            continue;
        }
        ASSERT_TRUE(c2c);
        EXPECT_EQ(c2c->result.lines.size(), e.lines);
        std::uint64_t stored_hitm = 0;
        for (const auto& l : c2c->result.lines)
            stored_hitm += l.counts.load_hitm;
        EXPECT_EQ(stored_hitm, e.shown_hitm);
        // What perf did not show is kept, so the run's HITM adds up to the text's.
        EXPECT_EQ(stored_hitm + *metric(s, id, "perf_c2c.hitm_not_shown"), e.hitm);
    }
    // The run reads like any other.
    const CliResult report = run_cli({"report", "2", "--db", db.string()}, dir.path());
    EXPECT_EQ(report.status, 0) << report.err;
    EXPECT_NE(report.out.find("0x20ea08034080"), std::string::npos) << report.out;
    EXPECT_NE(report.out.find("+0x38"), std::string::npos) << report.out;
}

TEST(CliPerfC2c, TextPrintsWhatWasImported) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const CliResult r =
        run_cli({"import", "perf-c2c", (fixtures / "joemario-c2c-blog-example-2016.txt").string(),
                 "--db", (dir / "c2c.db").string()},
                dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "imported run 1: perf c2c report (2016 layout, Intel), 55 shared lines, HITM "
                     "16159 (5 lines shown, 72 HITM on lines perf did not show)\n");
}

// "  Traced operations                 :          –" -> "–": a Trace Event Information value.
std::string stat_value(const std::string& report, const std::string& label) {
    const std::size_t at = report.find("  " + label + " ");
    if (at == std::string::npos)
        return "(no " + label + ")";
    const std::size_t colon = report.find(':', at);
    const std::size_t end = report.find('\n', colon);
    const std::size_t first = report.find_first_not_of(' ', colon + 1);
    return report.substr(first, end - first);
}

// perf's text has no store HITMs, stores to shared lines, invalidations or cycles, and an
// import no trace of ours: those are unknown in every output, never a measured 0, and stay so
// through a merge. perf's own Tot Hitm (load HITMs) is a number.
TEST(CliPerfC2c, CountsPerfDoesNotGiveAreUnknownNotZero) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const std::string db = import_2016_example(fixtures, dir);
    ASSERT_FALSE(db.empty());

    const CliResult text = run_cli({"report", "1", "--db", db}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    for (const char* label :
         {"Traced operations", "Dropped records", "CPU migrations seen",
          "Store HITM (ownership from M)", "Stores to shared lines", "Invalidations"})
        EXPECT_EQ(stat_value(text.out, label), "–") << label;
    EXPECT_EQ(stat_value(text.out, "Load HITM"), "16087");
    EXPECT_EQ(stat_value(text.out, "Total records"), "329219");
    // The hottest line's row: Tot Hitm and its share, transfers unknown, LoadHitm, then
    // StoreHitm and Inval unknown, ..., and no estimated cycles.
    EXPECT_THAT(text.out, ContainsRegex("0x602180 +0 +12103 +74\\.9% +– +– +12103 +– +– +529 "
                                        "+40400 +109504 +– "));
    // No operations to divide by: the line's share of the 16,159 HITMs perf captured, as perf
    // prints its percentages; no "–/1k" beside a count.
    EXPECT_THAT(text.out, HasSubstr("Tot Hitm 12103 (74.9% of captured HITM)  transfers –\n"));
    EXPECT_EQ(stat_value(text.out, "Captured HITM (all lines)"), "16159");
    EXPECT_THAT(text.out, Not(HasSubstr("/1k")));

    const CliResult json = run_cli({"report", "1", "--db", db, "--json"}, dir.path());
    ASSERT_EQ(json.status, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    EXPECT_TRUE(j.at("traced_ops").is_null());
    EXPECT_TRUE(j.at("dropped_records").is_null());
    EXPECT_TRUE(j.at("provenance").at("cpu_migrations").is_null());
    for (const nlohmann::json& counts : {j.at("totals"), j.at("lines").at(0).at("counts")}) {
        for (const char* unknown : {"store_hitm", "store_shared", "invalidations", "transfers",
                                    "transfers_per_1k_ops", "stall_cycles", "hitm_per_1k_ops"})
            EXPECT_TRUE(counts.at(unknown).is_null()) << unknown;
        EXPECT_NEAR(counts.at("hitm_share_percent").get<double>(),
                    100.0 * counts.at("hitm").get<double>() / 16159, 1e-9);
        EXPECT_EQ(counts.at("hitm"), counts.at("load_hitm"));
    }
    EXPECT_EQ(j.at("totals").at("hitm"), 16087);

    const CliResult exported = run_cli(
        {"export", "--db", db, "--format", "json", "-o", (dir / "r.json").string()}, dir.path());
    ASSERT_EQ(exported.status, 0) << exported.err;
    const nlohmann::json e = nlohmann::json::parse(read_file(dir / "r.json"));
    const nlohmann::json& line = e.at("runs").at(0).at("lines").at(0);
    EXPECT_EQ(line.at("hitm"), 12103);
    EXPECT_TRUE(line.at("transfers").is_null());
    EXPECT_TRUE(e.at("runs").at(0).at("provenance").at("traced_ops").is_null());

    const std::string merged = (dir / "merged.db").string();
    const CliResult merge = run_cli({"merge", db, "-o", merged}, dir.path());
    ASSERT_EQ(merge.status, 0) << merge.err;
    const CliResult again = run_cli({"report", "1", "--db", merged}, dir.path());
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(stat_value(again.out, "Store HITM (ownership from M)"), "–");
    EXPECT_EQ(stat_value(again.out, "Traced operations"), "–");
}

// perf c2c's TUI drill-down of the 2016 example's hottest line (offset 0x0, code 0x400b4f):
// 65.51 % of its 9,834 remote and 55.88 % of its 2,269 local HITMs, its cycles, CPUs and nodes,
// pid, symbol and source line, in `report`, its JSON and the exported report.
TEST(CliPerfC2c, ReportDrillsIntoEachLineAsPerfC2cTuiDoes) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const std::string db = import_2016_example(fixtures, dir);
    ASSERT_FALSE(db.empty());

    const CliResult text = run_cli({"report", "1", "--db", db, "--lines", "2"}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("Lcl Hitm 2269  Rmt Hitm 9834  loads 40400  stores 109504"));
    EXPECT_THAT(text.out, ContainsRegex("0x0 \\+0x0 +6442 +1268 +[0-9]+ +[0-9]+ +27161 +26039 "
                                        "+26017 +– +9 +14604 +– +0x400b4f +\\[\\.\\] "
                                        "read_write_func +false_sharing_example.c:144 +"
                                        "no_false_sharing.exe +0\\{0-1,4\\}  1\\{24-25,120\\}"));
    // The second line's code, too (offset 0x28, source line 159).
    EXPECT_THAT(text.out, HasSubstr("false_sharing_example.c:159"));

    const CliResult json = run_cli({"report", "1", "--db", db, "--json"}, dir.path());
    ASSERT_EQ(json.status, 0) << json.err;
    const nlohmann::json d = nlohmann::json::parse(json.out).at("lines").at(0).at("drilldown");
    EXPECT_EQ(d.at("lcl_hitm"), 2269);
    EXPECT_EQ(d.at("rmt_hitm"), 9834);
    EXPECT_TRUE(d.at("mean_load_cycles").is_null()); // perf prints means per row only
    ASSERT_EQ(d.at("code").size(), 6u);
    const nlohmann::json& row = d.at("code").at(0);
    EXPECT_EQ(row.at("symbol"), "[.] read_write_func");
    EXPECT_EQ(row.at("source"), "false_sharing_example.c:144");
    EXPECT_EQ(row.at("pid"), "14604");
    EXPECT_EQ(row.at("cpu_count"), 9);
    EXPECT_EQ(row.at("rmt_hitm"), 6442);
    EXPECT_EQ(row.at("lcl_hitm"), 1268);
    EXPECT_EQ(row.at("load_cycles_mean"), 26017.0);
    EXPECT_EQ(row.at("code_address"), "0x400b4f");

    const CliResult exported = run_cli(
        {"export", "--db", db, "--format", "md", "-o", (dir / "r.md").string()}, dir.path());
    ASSERT_EQ(exported.status, 0) << exported.err;
    const std::string md = read_file(dir / "r.md");
    EXPECT_THAT(md, HasSubstr("Code on the hottest lines"));
    EXPECT_THAT(md, HasSubstr("| 6442 | 1268 | 26017 | 9 |"));
    EXPECT_THAT(md, HasSubstr("false\\_sharing\\_example.c:144")); // Markdown-escaped
    EXPECT_THAT(md, HasSubstr("74.9")); // the hottest line's share of the captured HITMs
}

// Reads and writes per field from a capture (issue 36): on the 2016 example's hottest line
// offset 0x0 takes all 109,504 stores (its rows' L1 hits and misses) and 7,758 loads, the other
// offsets only loads, so they are the read-only fields on a written line.
TEST(CliPerfC2c, AccessSplitsReadsAndWritesPerFieldOfACapture) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const std::string db = import_2016_example(fixtures, dir);
    ASSERT_FALSE(db.empty());
    const CliResult json = run_cli({"report", "1", "--db", db, "--access", "--json"}, dir.path());
    ASSERT_EQ(json.status, 0) << json.err;
    const nlohmann::json a = nlohmann::json::parse(json.out).at("access");
    EXPECT_EQ(a.at("counted_in"), "samples");
    const auto field = [&](const std::string& object, const std::string& name) {
        for (const auto& f : a.at("fields"))
            if (f.at("object") == object && f.at("field") == name)
                return f;
        return nlohmann::json();
    };
    const nlohmann::json hot = field("0x602180", "+0x0");
    ASSERT_FALSE(hot.is_null());
    EXPECT_EQ(hot.at("writes"), 109504);
    EXPECT_EQ(hot.at("use"), "write-mostly");
    EXPECT_EQ(field("0x602180", "+0x28").at("use"), "read-only");
    std::set<std::string> beside;
    for (const auto& b : a.at("read_beside_write"))
        if (b.at("object") == "0x602180") {
            beside.insert(b.at("field").get<std::string>());
            EXPECT_EQ(b.at("writers"), nlohmann::json::array({"+0x0"}));
        }
    EXPECT_EQ(beside, (std::set<std::string>{"+0x20", "+0x28", "+0x30"}));

    const CliResult text = run_cli({"report", "1", "--db", db, "--access"}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("Field reads and writes (in samples)"));
    EXPECT_THAT(text.out, HasSubstr("0x602180 line 0: +0x20 beside +0x0"));
}

TEST(CliPerfC2c, OtherPerfOutputsAreRefusedWithOneLine) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const auto db = dir / "c2c.db";
    const std::pair<const char*, const char*> refused[] = {
        {"joemario-perf-c2c-usage-2016.txt", "perf c2c usage text, not a perf c2c report"},
        {"kernel-doc-perf-amd-ibs-perf-mem-report-example.txt", "perf mem report output"},
        {"lkml-2024-08-zixian-cai-perf-evlist-v-mem-record-adl.txt", "perf evlist -v output"},
        {"lkml-2024-08-zixian-cai-perf-script-mem-loads-adl.txt", "perf script output"},
    };
    for (const auto& [name, what] : refused) {
        SCOPED_TRACE(name);
        const CliResult r = run_cli(
            {"import", "perf-c2c", (fixtures / name).string(), "--db", db.string()}, dir.path());
        EXPECT_EQ(r.status, 1);
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(db)); // refused before the database is opened
}

// An import reads at most 128 MiB: /dev/zero, which never ends, was read until memory ran out; a
// regular file is refused by its size before a byte of it is read (this one is sparse, all NULs).
TEST(CliPerfC2c, InputLargerThanAnImportReadsIsRefusedInOneLine) {
    TempDir dir;
    const auto db = dir / "c2c.db";
    const auto large = dir / "large.txt";
    std::ofstream(large).close();
    std::filesystem::resize_file(large, (std::uintmax_t{128} << 20) + 1);
    for (const char* importer : {"perf-c2c", "lockstat", "perf-lock"})
        for (const std::string& file : {std::string("/dev/zero"), large.string()}) {
            SCOPED_TRACE(fmt::format("{} {}", importer, file));
            const CliResult r =
                run_cli({"import", importer, file, "--db", db.string()}, dir.path());
            EXPECT_EQ(r.status, 1);
            EXPECT_EQ(r.err, fmt::format("hitmap-collect: error: cannot import {}: it holds more "
                                         "than the 128 MiB an import reads\n",
                                         file));
        }
    EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CliPerfC2c, MalformedRowIsRefusedWithItsLineAndNothingStored) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const auto db = dir / "c2c.db";
    const auto good = fixtures / "perfgo-false-sharing-amd-ibs-example.txt";
    ASSERT_NE(import_json({good.string(), "--db", db.string()}, dir), 0);

    std::string text = read_file(good);
    // The table row (line 72) with a load count that is no number.
    const std::size_t at = text.find("     3152     3152");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 18, "     3152     31x2");
    const auto bad = dir / "bad-row.txt";
    write_text(bad, text);
    const CliResult r =
        run_cli({"import", "perf-c2c", bad.string(), "--db", db.string()}, dir.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(bad.string() + ":72: Total Loads '31x2' is not a count"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(run_count(db), 1u);
}

TEST(CliPerfC2c, UnknownSectionIsANoteOnStderrAndTheReportImports) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    std::string text = read_file(fixtures / "perfgo-false-sharing-amd-ibs-example.txt");
    const std::string rule(49, '=');
    const std::size_t table = text.find(rule + "\n           Shared Data Cache Line Table");
    ASSERT_NE(table, std::string::npos);
    text.insert(table,
                rule + "\n  Memory Ranges\n" + rule + "\n  0x20ea08000000-0x20ea08100000\n\n");
    const auto file = dir / "with-ranges.txt";
    write_text(file, text);
    const CliResult r = run_cli(
        {"import", "perf-c2c", file.string(), "--db", (dir / "c2c.db").string()}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, fmt::format("hitmap-collect: note: {}:65: section 'Memory Ranges' is not "
                                 "imported\n",
                                 file.string()));
    EXPECT_NE(r.out.find("HITM 2096"), std::string::npos) << r.out;
}

TEST(CliPerfC2c, LayoutAtBaseNamesTheFields) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/c2c");
    TempDir dir;
    const auto db = dir / "c2c.db";
    const auto file = fixtures / "perfgo-false-sharing-amd-ibs-example.txt";
    const std::int64_t id = import_json({file.string(), "--layout", "page_counter=v6.0", "--base",
                                         "0x20ea08034070", "--db", db.string()},
                                        dir);
    ASSERT_NE(id, 0);
    auto s = store::Database::open(db);
    const auto c2c = store::read_c2c(s, id);
    ASSERT_TRUE(c2c);
    ASSERT_EQ(c2c->objects.size(), 1u);
    EXPECT_EQ(c2c->objects[0].name, "page_counter@0x20ea08034070");
    ASSERT_EQ(c2c->result.fields.size(), 2u);
    EXPECT_EQ(c2c->result.fields[0].field_name, "elow");
    EXPECT_EQ(c2c->result.fields[1].field_name, "low_usage");

    // A layout that covers no line, and one without its base, are refused; nothing is stored.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--layout", "page_counter=v6.0", "--base", "0x1000"},
          std::vector<std::string>{"--layout", "page_counter=v6.0"}}) {
        std::vector<std::string> all = {"import", "perf-c2c", file.string(), "--db", db.string()};
        all.insert(all.end(), args.begin(), args.end());
        const CliResult r = run_cli(all, dir.path());
        EXPECT_EQ(r.status, 1);
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
    EXPECT_EQ(run_count(db), 1u);
}

} // namespace
} // namespace hitmap::testing
