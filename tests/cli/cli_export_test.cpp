// `export` end to end (issue 14) on simulated runs from the committed calibrations, so every
// figure is exact: Markdown with the comparison field by field, CSV one file per table with
// unknown cells empty, JSON identical for two databases simulated alike, stored strings
// escaped, and bad requests refused in one line without touching an existing report.
#include "tests/cli/cli_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kCalibrations = std::string(HITMAP_TEST_DATA) + "/calibration/";

// Run 1: v6.0, run 2: v6.1, both on 8 simulated CPUs; run 3: res_counter per page on 4, with
// the engine's lock table.
void simulate_pair(const std::string& db, const TempDir& dir) {
    for (const char* variant : {"v6.0", "v6.1"})
        ASSERT_EQ(
            run_cli({"run", "page-counter-charge", "--variant", variant, "--simulate", "xeon-2s-72",
                     "--threads", "8", "--iterations", "300", "--calibration",
                     kCalibrations + "page-counter-charge.json", "--progress", "none", "--db", db},
                    dir.path())
                .status,
            0);
    ASSERT_EQ(run_cli({"run", "res-counter-charge", "--variant", "per-page", "--simulate",
                       "xeon-2s-72", "--threads", "4", "--iterations", "300", "--calibration",
                       kCalibrations + "res-counter-charge.json", "--progress", "none", "--db", db},
                      dir.path())
                  .status,
              0);
}

TEST(CliExport, MarkdownComparesTheTwoRunsFieldByField) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    simulate_pair(db, dir);
    const CliResult r = run_cli({"export", "--db", db, "--runs", "1,2"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("- Before: run 1: page-counter-charge v6.0, 8 threads, "
                                 "simulated\n"));
    EXPECT_THAT(r.out, HasSubstr("+205.3%")); // v6.1's ops/s over v6.0's on 8 simulated CPUs
    EXPECT_THAT(r.out, HasSubstr("### HITM per field of top (per 1k traced operations)"));
    EXPECT_THAT(r.out, HasSubstr("| memory.usage | 29.17 | 48.75 | 67.1 |"));
    EXPECT_THAT(r.out, HasSubstr("| memory.high | 0.83 | 0.00 | -100.0 |"));
    EXPECT_THAT(r.out, HasSubstr("| memory.watermark | 0.00 | 0.83 | – |")); // from 0: no ratio
    EXPECT_THAT(r.out, HasSubstr("| 1 | top | 4 |"));
    // The header says when, where and by which build.
    EXPECT_THAT(r.out, ::testing::ContainsRegex("\nMade [0-9T:.-]+Z on host .+, kernel .+, by "
                                                "hitmap 0\\.1\\.0"));
}

TEST(CliExport, JsonIsTheSameForTwoDatabasesSimulatedAlike) {
    TempDir dir;
    const auto a = (dir / "a.db").string(), b = (dir / "b.db").string();
    simulate_pair(a, dir);
    simulate_pair(b, dir);
    const CliResult ra = run_cli({"export", "--db", a, "--format", "json"}, dir.path());
    const CliResult rb = run_cli({"export", "--db", b, "--format", "json"}, dir.path());
    ASSERT_EQ(ra.status, 0) << ra.err;
    auto ja = nlohmann::json::parse(ra.out), jb = nlohmann::json::parse(rb.out);
    EXPECT_EQ(ja["runs"].size(), 3u);
    EXPECT_TRUE(ja["comparison"].is_null()); // three runs: nothing is compared
    const auto& locks = ja["runs"][2]["lock_classes"];
    ASSERT_EQ(locks.size(), 1u);
    EXPECT_EQ(locks[0]["name"], "&counter->lock");
    EXPECT_EQ(locks[0]["contentions"], 2399);
    EXPECT_FALSE(locks[0]["waits"].empty());
    for (auto* j : {&ja, &jb}) {
        j->erase("database");
        for (auto& run : (*j)["runs"])
            run["run"].erase("started_at");
    }
    EXPECT_EQ(ja, jb);
}

TEST(CliExport, CsvWritesATablePerFileWithUnknownCellsEmpty) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    simulate_pair(db, dir);
    {
        SQLite::Database sql(db, SQLite::OPEN_READWRITE);
        sql.exec("UPDATE run SET ops_per_s = NULL, variant = 'a,\"b\"' WHERE id = 2");
    }
    const auto out = dir / "csv";
    const CliResult r = run_cli(
        {"export", "--db", db, "--runs", "1,2", "--format", "csv", "-o", out.string()}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("runs.csv"));
    const std::string runs = read_file(out / "runs.csv");
    EXPECT_THAT(runs, HasSubstr("Run,Workload,Variant,Threads,Source,Simulated machine,"));
    EXPECT_THAT(runs, HasSubstr("\r\n2,page-counter-charge,\"a,\"\"b\"\"\",8,simulated,"
                                "xeon-2s-72,"));
    EXPECT_THAT(runs, HasSubstr(",2400,,simulated\r\n")); // ops/s unknown: empty, not 0
    for (const char* table : {"comparison_fields.csv", "lines.csv", "scaling.csv"})
        EXPECT_TRUE(std::filesystem::exists(out / table)) << table;
    const CliResult md = run_cli({"export", "--db", db, "--runs", "1,2"}, dir.path());
    EXPECT_THAT(md.out, HasSubstr("| 2 | page-counter-charge | a,\"b\" | 8 | simulated | "
                                  "xeon-2s-72 | 0.000021 | 2400 | – |"));
}

TEST(CliExport, StoredMarkupIsEscaped) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    simulate_pair(db, dir);
    {
        SQLite::Database sql(db, SQLite::OPEN_READWRITE);
        sql.exec("UPDATE run SET variant = '<img src=x onerror=alert(1)>|' || char(27) || '[31m' "
                 "WHERE id = 1");
    }
    const CliResult r = run_cli({"export", "--db", db, "--runs", "1"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, Not(HasSubstr("<img")));
    EXPECT_THAT(r.out, Not(HasSubstr("\x1b")));
    EXPECT_THAT(r.out, HasSubstr("&lt;img src=x onerror=alert(1)&gt;\\|\\\\x1b\\[31m"));
}

TEST(CliExport, BadRequestsFailInOneLineAndKeepAnExistingReport) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    simulate_pair(db, dir);
    const auto report = dir / "report.md";
    ASSERT_EQ(
        run_cli({"export", "--db", db, "--runs", "1,2", "-o", report.string()}, dir.path()).status,
        0);
    const std::string kept = read_file(report);
    ASSERT_THAT(kept, HasSubstr("HITM per field"));
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases{
        {{"--runs", "1,99"}, "run 99 is not in the database"},
        {{"--workload", "no-such"}, "no complete run of workload 'no-such'"},
        {{"--runs", "1", "--format", "csv"}, "give a folder with -o"},
        {{"--runs", "x"}, "--runs"},
        {{"--runs", "1", "-o", (dir / "missing" / "r.md").string()}, "cannot write"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args{"export", "--db", db};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const CliResult r = run_cli(args, dir.path());
        EXPECT_NE(r.status, 0) << c.message;
        EXPECT_THAT(r.err, HasSubstr(c.message));
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
    const CliResult missing_db =
        run_cli({"export", "--db", (dir / "none.db").string()}, dir.path());
    EXPECT_EQ(missing_db.status, 1);
    EXPECT_FALSE(std::filesystem::exists(dir / "none.db"));
    EXPECT_EQ(read_file(report), kept);
    EXPECT_FALSE(std::filesystem::exists(dir / "report.md.partial"));
}

// -o replaces only a regular file (or nothing): a link is followed and its target replaced, a
// FIFO or a character device is written into and stays what it was, "-" is standard output, and
// a folder or a link to nothing is refused in one line.
TEST(CliExport, OutputThatIsNotARegularFileIsWrittenIntoOrRefused) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "100").status, 0);
    const auto exported = [&](const std::filesystem::path& out) {
        return run_cli({"export", "--db", db, "-o", out.string()}, dir.path());
    };

    const CliResult to_stdout = exported("-");
    ASSERT_EQ(to_stdout.status, 0) << to_stdout.err;
    EXPECT_THAT(to_stdout.out, HasSubstr("## hitmap report"));
    EXPECT_FALSE(std::filesystem::exists(dir / "-"));

    std::ofstream(dir / "real.md") << "old";
    std::filesystem::create_symlink("real.md", dir / "link.md");
    ASSERT_EQ(exported(dir / "link.md").status, 0);
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.md"));
    EXPECT_THAT(read_file(dir / "real.md"), HasSubstr("## hitmap report"));

    // The reader is open before the export starts, so the export's open does not wait for one
    // and whatever it writes is in the pipe once it has exited.
    const auto fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(reader, 0);
    ASSERT_EQ(exported(fifo).status, 0);
    std::string piped(65536, '\0');
    const ssize_t n = ::read(reader, piped.data(), piped.size());
    ::close(reader);
    piped.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    EXPECT_THAT(piped, HasSubstr("## hitmap report"));
    EXPECT_TRUE(std::filesystem::is_fifo(fifo));

    if (::geteuid() == 0) {
        // /dev/null's numbers, made here: the real one is never the target of a test.
        const auto device = dir / "null";
        ASSERT_EQ(::mknod(device.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
        ASSERT_EQ(exported(device).status, 0);
        EXPECT_TRUE(std::filesystem::is_character_file(device));
    }

    std::filesystem::create_directory(dir / "folder");
    std::filesystem::create_symlink("nowhere.md", dir / "dangling.md");
    for (const auto& [target, message] : std::vector<std::pair<std::string, std::string>>{
             {"folder", "it is a folder"},
             {"dangling.md", "it is a symbolic link to a file that does not exist"}}) {
        const CliResult r = exported(dir / target);
        EXPECT_NE(r.status, 0) << target;
        EXPECT_THAT(r.err, HasSubstr(message));
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
    EXPECT_TRUE(std::filesystem::is_directory(dir / "folder"));
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "dangling.md"));
    EXPECT_FALSE(std::filesystem::exists(dir / "nowhere.md"));
}

} // namespace
} // namespace hitmap::testing
