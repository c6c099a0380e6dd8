// Lock statistics end to end: import lockstat / perf-lock, report --locks, and the refusals,
// which leave the database as it was.
#include "collector/store/database.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hitmap::testing {
namespace {

// The ids of the runs an `import --json` created.
std::vector<std::int64_t> imported_ids(const CliResult& r) {
    std::vector<std::int64_t> ids;
    const nlohmann::json printed = nlohmann::json::parse(r.out);
    for (const auto& run : printed.at("runs"))
        ids.push_back(run.at("id").get<std::int64_t>());
    return ids;
}

std::vector<std::int64_t> import_ok(const std::string& kind, const std::filesystem::path& file,
                                    const std::filesystem::path& db, const TempDir& dir) {
    const CliResult r =
        run_cli({"import", kind, file.string(), "--db", db.string(), "--json"}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? imported_ids(r) : std::vector<std::int64_t>{};
}

nlohmann::json lock_report_json(std::int64_t run, const std::filesystem::path& db,
                                const TempDir& dir) {
    const CliResult r = run_cli(
        {"report", std::to_string(run), "--locks", "--json", "--db", db.string()}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out).at("lock_tables");
}

// The numbers lock_stat 0.3 prints, which must survive a print and a re-import. The averages
// are left out: 0.3 has none, the 0.4 printout computes them.
nlohmann::json printed_numbers(const nlohmann::json& tables) {
    nlohmann::json numbers = nlohmann::json::array();
    for (const auto& table : tables)
        for (auto c : table.at("classes")) {
            for (const char* side : {"write", "read"})
                if (c[side].is_object()) {
                    c[side].erase("wait_avg_ns");
                    c[side].erase("hold_avg_ns");
                }
            numbers.push_back(
                {c["name"], c["write"], c["read"], c["contention_points"], c["contending_points"]});
        }
    return numbers;
}

void checkpoint(const std::filesystem::path& db) {
    auto s = store::Database::open(db);
    store::sql_connection(s).exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

TEST(CliLocks, EveryLockStatAndPerfFixtureImportsAndReports) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/lockstat");
    TempDir dir;
    const auto db = dir / "locks.db";
    int imported = 0;
    for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        if (name.starts_with("mutrace") || name.starts_with("illumos")) {
            const CliResult r = run_cli(
                {"import", "lockstat", entry.path().string(), "--db", db.string()}, dir.path());
            EXPECT_NE(r.status, 0);
            EXPECT_EQ(count_lines(r.err), 1) << r.err;
            EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
            EXPECT_NE(r.err.find(name.starts_with("mutrace") ? "mutrace" : "illumos"),
                      std::string::npos)
                << r.err;
            continue;
        }
        const std::string kind = name.starts_with("perf") ? "perf-lock" : "lockstat";
        const auto ids = import_ok(kind, entry.path(), db, dir);
        ASSERT_FALSE(ids.empty());
        for (const auto id : ids) {
            const CliResult text =
                run_cli({"report", std::to_string(id), "--locks", "--db", db.string()}, dir.path());
            EXPECT_EQ(text.status, 0) << text.err;
            EXPECT_NE(text.out.find("lock_stat version 0.4"), std::string::npos);
            EXPECT_EQ(lock_report_json(id, db, dir).size(), 1u);
        }
        ++imported;
    }
    EXPECT_GE(imported, 20);
}

TEST(CliLocks, WrongImporterNamesTheRightOne) {
    HITMAP_REQUIRE_SHARED(perf, "fixtures/lockstat/perf-lock-contention-csv-2023.txt");
    TempDir dir;
    const auto db = dir / "locks.db";
    const CliResult r =
        run_cli({"import", "lockstat", perf.string(), "--db", db.string()}, dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("import perf-lock"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db)); // refused before the database was opened
}

// Acceptance for issue 5: seed 003's lock_stat tables import and print back with the same
// numbers.
TEST(CliLocks, Seed003PrintsBackWithTheSameNumbers) {
    HITMAP_REQUIRE_SHARED(seeds, "seeds");
    std::filesystem::path seed;
    for (const auto& entry : std::filesystem::directory_iterator(seeds))
        if (entry.path().filename().string().starts_with("003_"))
            seed = entry.path();
    ASSERT_FALSE(seed.empty()) << "no seed 003 in " << seeds;
    TempDir dir;
    const auto db = dir / "locks.db";

    const auto ids = import_ok("lockstat", seed, db, dir);
    ASSERT_EQ(ids.size(), 2u); // before and after
    nlohmann::json original = nlohmann::json::array();
    std::string printed;
    for (const auto id : ids) {
        original.push_back(lock_report_json(id, db, dir).at(0));
        const CliResult r =
            run_cli({"report", std::to_string(id), "--locks", "--db", db.string()}, dir.path());
        ASSERT_EQ(r.status, 0) << r.err;
        printed += r.out;
    }
    EXPECT_EQ(original[0]["classes"][0]["name"], "&counter->lock");
    EXPECT_EQ(original[0]["classes"][0]["write"]["contentions"], 1196935);
    EXPECT_EQ(original[1]["classes"][0]["write"]["contentions"], 12984);
    EXPECT_NE(printed.find("1196935"), std::string::npos) << printed;
    EXPECT_NE(printed.find("12984"), std::string::npos) << printed;

    const auto reprinted = dir / "reprinted.txt";
    { std::ofstream(reprinted) << printed; }
    const auto again = import_ok("lockstat", reprinted, db, dir);
    ASSERT_EQ(again.size(), 2u);
    nlohmann::json reimported = nlohmann::json::array();
    for (const auto id : again)
        reimported.push_back(lock_report_json(id, db, dir).at(0));
    EXPECT_EQ(printed_numbers(reimported), printed_numbers(original));
}

TEST(CliLocks, MalformedRowIsOneLineWithItsNumberAndChangesNothing) {
    TempDir dir;
    const auto db = dir / "keep.db";
    ASSERT_EQ(seed_run(db.string(), dir.path(), "500").status, 0);
    checkpoint(db);
    const std::string before = read_file(db);
    const auto bad = dir / "broken.txt";
    {
        std::ofstream(bad)
            << "lock_stat version 0.3\n\n"
               "  &counter->lock:  1167034  1196935  0.52  16291.34  829793.69  18742433  "
               "45050576  0.42  30788.81  9490908.36\n"
               "  &other->lock:  1167034  1196935  0.52  16291.34  829793.69  18742433  "
               "45050576  0.42  30788.81\n";
    }
    const CliResult r =
        run_cli({"import", "lockstat", bad.string(), "--db", db.string()}, dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("hitmap-collect: error: " + bad.string() + ":4: ", 0), 0u) << r.err;
    EXPECT_EQ(read_file(db), before);
}

TEST(CliLocks, MissingFileIsAClearError) {
    TempDir dir;
    const auto db = dir / "locks.db";
    const CliResult r = run_cli(
        {"import", "perf-lock", (dir / "nope.txt").string(), "--db", db.string()}, dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CliLocks, ReportLocksNeedsARunWithLockData) {
    TempDir dir;
    const auto db = dir / "runs.db";
    ASSERT_EQ(seed_run(db.string(), dir.path(), "500").status, 0);
    const CliResult none = run_cli({"report", "1", "--locks", "--db", db.string()}, dir.path());
    EXPECT_NE(none.status, 0);
    EXPECT_EQ(count_lines(none.err), 1) << none.err;
    EXPECT_NE(none.err.find("no lock statistics"), std::string::npos) << none.err;

    const CliResult missing =
        run_cli({"report", "99", "--locks", "--json", "--db", db.string()}, dir.path());
    EXPECT_NE(missing.status, 0);
    EXPECT_EQ(count_lines(missing.err), 1) << missing.err;
    EXPECT_NE(missing.err.find("run 99 is not in"), std::string::npos) << missing.err;
}

// Issue 5 acceptance 1, the part a test can hold on a shared VM: both variants store the
// res_counter lock class and print it as lock_stat 0.4 with named call sites; the precharge
// takes the lock for one page in 32. (How many of those acquisitions contend depends on how the
// threads overlap; the measured drop is in docs/BENCHMARKS.md.)
TEST(CliLocks, ResCounterChargeStoresItsLockClassPerVariant) {
    TempDir dir;
    const auto db = dir / "l.db";
    const CliResult run = run_cli({"run", "res-counter-charge", "--variant", "per-page,precharge",
                                   "--threads", "2", "--iterations", "20000", "--db", db.string()},
                                  dir.path());
    ASSERT_EQ(run.status, 0) << run.err;
    double acquisitions[2] = {0, 0};
    for (int id : {1, 2}) {
        const CliResult text =
            run_cli({"report", std::to_string(id), "--locks", "--db", db.string()}, dir.path());
        ASSERT_EQ(text.status, 0) << text.err;
        EXPECT_NE(text.out.find("lock_stat version 0.4"), std::string::npos);
        EXPECT_NE(text.out.find("&counter->lock:"), std::string::npos) << text.out;
        const auto tables = lock_report_json(id, db, dir);
        ASSERT_EQ(tables.size(), 1u);
        EXPECT_EQ(tables[0]["source"], "engine");
        const auto& cls = tables[0]["classes"][0];
        EXPECT_EQ(cls["name"], "&counter->lock");
        EXPECT_EQ(cls["lock_type"], "spinlock");
        acquisitions[id - 1] = cls["write"]["acquisitions"].get<double>();
        for (const auto& p : cls["contention_points"])
            EXPECT_EQ(p["symbol"].get<std::string>().find("ResCounter::"), 0u) << p.dump();
    }
    EXPECT_GT(acquisitions[0], 0);
    EXPECT_LT(acquisitions[1], acquisitions[0] / 8) << "precharge batches 32 pages per charge";
}

// Issue 5 acceptance 3: kernel lock-wait rows, or exactly why there are none. Which one this
// machine gives depends on tracefs and privilege, so the test accepts either, but never both
// and never silence.
// Smoke test on this machine's tracepoints: which branch it takes depends on the machine, so it
// only checks the two are never mixed; both branches are asserted deterministically in
// tests/cli/kernel_locks_test.cpp (synthetic waits) and tests/perf (fake tracefs trees).
TEST(CliLocks, KernelLocksSmokeStoresRowsOrSaysWhy) {
    TempDir dir;
    const auto db = dir / "k.db";
    const CliResult run =
        run_cli({"run", "page-counter-charge", "--variant", "v6.1", "--threads", "2", "--duration",
                 "300ms", "--c2c", "off", "--kernel-locks", "--db", db.string()},
                dir.path());
    ASSERT_EQ(run.status, 0) << run.err;
    const CliResult r =
        run_cli({"report", "1", "--locks", "--json", "--db", db.string()}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("kernel_locks")) << r.out;
    const auto& k = j["kernel_locks"];
    bool kernel_table = false;
    for (const auto& t : j["lock_tables"])
        kernel_table = kernel_table || t["source"] == "kernel";
    if (k["available"].get<bool>()) {
        EXPECT_TRUE(kernel_table) << "available kernel lock data must be stored as a table";
        EXPECT_TRUE(k["reason"].is_null());
    } else {
        EXPECT_FALSE(kernel_table);
        EXPECT_FALSE(k["reason"].get<std::string>().empty());
        const CliResult text = run_cli({"report", "1", "--locks", "--db", db.string()}, dir.path());
        EXPECT_NE(text.out.find("not collected: " + k["reason"].get<std::string>()),
                  std::string::npos)
            << text.out;
    }
}

// A perf lock contention table whose second row is named `name`: the row is on line 4.
std::string perf_table_naming(const std::string& name) {
    return " contended   total wait     max wait     avg wait         type   caller\n"
           "\n"
           "         3     27.49 us     15.86 us      9.16 us     spinlock   ok_caller+0x1b\n"
           "         2     24.58 us     14.10 us     12.29 us     rwlock:W   " +
           name + "\n";
}

// An import of `text` is refused with one line starting "FILE:LINE: " and containing `reason`,
// and the database is left byte for byte as it was.
void expect_refused(const std::string& text, int line, const std::string& reason) {
    TempDir dir;
    const auto db = dir / "keep.db";
    ASSERT_EQ(seed_run(db.string(), dir.path(), "500").status, 0);
    checkpoint(db);
    const std::string before = read_file(db);
    const auto bad = dir / "bad.txt";
    { std::ofstream(bad, std::ios::binary) << text; }
    const CliResult r =
        run_cli({"import", "perf-lock", bad.string(), "--db", db.string()}, dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind(fmt::format("hitmap-collect: error: {}:{}: ", bad.string(), line), 0), 0u)
        << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    EXPECT_EQ(read_file(db), before);
}

// Issue 9, failure 7: such a name used to import and then break report --locks --json for good.
TEST(CliLocks, InvalidUtf8NameIsRefusedWithItsLineAndChangesNothing) {
    expect_refused(perf_table_naming("bad\xff\xfe_caller+0x2d"), 4, "invalid UTF-8");
    expect_refused(perf_table_naming("overlong\xc0\xaf+0x2d"), 4, "invalid UTF-8");
}

// Issue 9, failure 8: ESC, CR and NUL in a name reached the terminal.
TEST(CliLocks, ControlCharacterInANameIsRefusedWithItsLine) {
    expect_refused(perf_table_naming("\x1b[2Jcaller+0x2d"), 4, "control character 0x1b");
    expect_refused(perf_table_naming("car\riage+0x2d"), 4, "control character 0x0d");
    expect_refused(perf_table_naming(std::string("nul\0caller", 10)), 4, "control character 0x00");
}

std::string utf16(const std::string& ascii, bool little_endian) {
    std::string out;
    for (const char c : ascii)
        out += little_endian ? std::string{c, '\0'} : std::string{'\0', c};
    return out;
}

TEST(CliLocks, Utf16FileGetsAConversionHint) {
    TempDir dir;
    const auto db = dir / "locks.db";
    const std::string text = perf_table_naming("pipe_read+0x56");
    for (const auto& [name, bytes] : {std::pair{"bom-le.txt", "\xff\xfe" + utf16(text, true)},
                                      std::pair{"bom-be.txt", "\xfe\xff" + utf16(text, false)},
                                      std::pair{"no-bom.txt", utf16(text, true)}}) {
        SCOPED_TRACE(name);
        const auto file = dir / name;
        { std::ofstream(file, std::ios::binary) << bytes; }
        const CliResult r =
            run_cli({"import", "perf-lock", file.string(), "--db", db.string()}, dir.path());
        EXPECT_NE(r.status, 0);
        EXPECT_EQ(r.err,
                  "hitmap-collect: error: " + file.string() +
                      " looks like UTF-16; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)\n");
        EXPECT_FALSE(std::filesystem::exists(db));
    }
}

// A database written before imports were checked may hold any bytes in a name: both reports
// still print, JSON with U+FFFD for the invalid bytes, text with control characters escaped.
TEST(CliLocks, StoredGarbageNamesStillReport) {
    TempDir dir;
    const auto db = dir / "old.db";
    const auto file = dir / "perf.txt";
    { std::ofstream(file) << perf_table_naming("pipe_read+0x56"); }
    const auto ids = import_ok("perf-lock", file, db, dir);
    ASSERT_EQ(ids.size(), 1u);
    const std::string garbage("\x1b[31mred\xff\r\0end", 14);
    {
        auto store = store::Database::open(db);
        SQLite::Statement st(store::sql_connection(store),
                             "UPDATE lock_class_stat SET name = ? WHERE name = ?");
        st.bind(1, garbage);
        st.bind(2, "pipe_read+0x56");
        ASSERT_EQ(st.exec(), 1);
    }
    const auto tables = lock_report_json(ids[0], db, dir);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0]["classes"][1]["name"],
              "\x1b[31mred\xef\xbf\xbd\r" + std::string(1, '\0') + "end");

    const CliResult text =
        run_cli({"report", std::to_string(ids[0]), "--locks", "--db", db.string()}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("\\x1b[31mred\xff\\r\\0end:"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find_first_of(std::string("\x1b\r\0", 3)), std::string::npos);
}

// A file name becomes an imported run's variant: its control characters are escaped wherever
// the variant is printed as text.
TEST(CliLocks, ControlCharactersInAFileNameAreEscapedInTextOutput) {
    TempDir dir;
    const auto db = dir / "runs.db";
    const auto file = dir / "lock\x1b[2J.txt";
    { std::ofstream(file) << perf_table_naming("pipe_read+0x56"); }
    const CliResult imported =
        run_cli({"import", "perf-lock", file.string(), "--db", db.string()}, dir.path());
    ASSERT_EQ(imported.status, 0) << imported.err;
    const CliResult shown = run_cli({"show", "--db", db.string()}, dir.path());
    ASSERT_EQ(shown.status, 0) << shown.err;
    const CliResult report = run_cli({"report", "1", "--locks", "--db", db.string()}, dir.path());
    ASSERT_EQ(report.status, 0) << report.err;
    for (const CliResult* r : {&imported, &shown, &report}) {
        EXPECT_NE(r->out.find("lock\\x1b[2J.txt#1"), std::string::npos) << r->out;
        EXPECT_EQ(r->out.find('\x1b'), std::string::npos) << r->out;
    }
}

// report --locks --json is written row by row from the store: for a lock_stat table with call
// sites and a perf -v table with stacks it prints what the whole-table json printed
// (data/small-report.golden.json, from the code before the change).
TEST(CliLocks, StreamedJsonReportIsTheOldReport) {
    const std::filesystem::path data = HITMAP_CLI_TEST_DATA;
    TempDir dir;
    const auto db = dir / "locks.db";
    ASSERT_EQ(import_ok("lockstat", data / "small-lockstat.txt", db, dir).size(), 1u);
    ASSERT_EQ(import_ok("perf-lock", data / "small-perf.txt", db, dir).size(), 1u);
    // The lock tables byte for byte; the run object (sorted after them) is the run summary
    // every report shares, with timestamps and paths of this test's own import.
    const auto lock_tables = [](const std::string& json) {
        std::string out;
        for (std::size_t at = 0;
             (at = json.find("\n  \"lock_tables\"", at)) != std::string::npos;) {
            const std::size_t end = json.find("\n  \"run\"", at);
            out += json.substr(at, end - at);
            at = end;
        }
        return out;
    };
    std::string printed;
    for (const char* run : {"1", "2"}) {
        const CliResult r =
            run_cli({"report", run, "--locks", "--json", "--db", db.string()}, dir.path());
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(nlohmann::json::parse(r.out)["run"]["source"], "imported");
        printed += r.out;
    }
    const std::string golden = lock_tables(read_file(data / "small-report.golden.json"));
    ASSERT_FALSE(golden.empty());
    EXPECT_EQ(lock_tables(printed), golden);
}

// Every row of a large table goes in and comes out, in order.
TEST(CliLocks, LargeTableImportsAndReportsEveryRow) {
    TempDir dir;
    const auto db = dir / "big.db";
    const auto file = dir / "big.txt";
    constexpr int kRows = 20'000;
    {
        std::ofstream out(file);
        out << " contended   total wait     max wait     avg wait         type   caller\n\n";
        for (int i = 0; i < kRows; ++i)
            out << fmt::format("{:>10}     {}.00 us      1.00 us      1.00 us     spinlock   "
                               "caller_{}+0x1\n",
                               i + 1, i + 1, i);
    }
    const auto ids = import_ok("perf-lock", file, db, dir);
    ASSERT_EQ(ids.size(), 1u);
    const auto tables = lock_report_json(ids[0], db, dir);
    ASSERT_EQ(tables.size(), 1u);
    const auto& classes = tables[0]["classes"];
    ASSERT_EQ(classes.size(), static_cast<std::size_t>(kRows));
    for (const int i : {0, kRows / 2, kRows - 1}) {
        EXPECT_EQ(classes[i]["name"], fmt::format("caller_{}+0x1", i));
        EXPECT_EQ(classes[i]["write"]["contentions"], i + 1);
        EXPECT_EQ(classes[i]["write"]["wait_total_ns"], (i + 1) * 1000);
    }
}

} // namespace
} // namespace hitmap::testing
