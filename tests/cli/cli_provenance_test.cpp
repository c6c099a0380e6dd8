// Provenance and integrity end to end (issue 9): every run says where its numbers came from,
// unknown shows as "–" (null in JSON), a read-only folder can still be read, and a refused
// write leaves no run behind.
#include "tests/cli/cli_test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kLockStat =
    "lock_stat version 0.4\n"
    "-----------------------------------------------------------------------------------------\n"
    "                              class name    con-bounces    contentions   waittime-min   "
    "waittime-max waittime-total   waittime-avg    acq-bounces   acquisitions   holdtime-min   "
    "holdtime-max holdtime-total   holdtime-avg\n"
    "-----------------------------------------------------------------------------------------\n"
    "\n"
    "                          &counter->lock:         11526          11488           0.10       "
    "  20.00         300.00           0.03          22000          90000           0.05       "
    "  10.00        1000.00           0.01\n";

std::filesystem::path write_text(const TempDir& dir, const std::string& name,
                                 std::string_view text) {
    const auto path = dir / name;
    std::ofstream(path) << text;
    return path;
}

// Acceptance 3: an imported lock_stat table knows neither threads nor duration.
TEST(CliProvenance, ImportedRunShowsUnknownThreadsAndDuration) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    const auto file = write_text(dir, "lock_stat.txt", kLockStat);
    ASSERT_EQ(run_cli({"import", "lockstat", file.string(), "--db", db}, dir.path()).status, 0);

    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["source"], "imported");
    EXPECT_TRUE(runs[0]["threads"].is_null());
    EXPECT_TRUE(runs[0]["duration_s"].is_null());
    EXPECT_TRUE(runs[0]["ops_per_s"].is_null());

    const auto text = run_cli({"show", "--db", db}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("imported"));
    EXPECT_THAT(text.out, HasSubstr("–"));
    EXPECT_THAT(text.out, Not(HasSubstr(" 0.00 "))) << "an unknown duration printed as 0";

    const auto report = run_cli({"report", "1", "--db", db}, dir.path());
    EXPECT_NE(report.status, 0);
    EXPECT_THAT(report.err, HasSubstr("imported")) << "the reason is the import, not --c2c off";
    EXPECT_THAT(report.err, Not(HasSubstr("--c2c off")));
}

// Traced and untraced throughput are different sources, and the report says which one a
// run's figures are, with the replay's clock, caches, cost table and dropped records.
TEST(CliProvenance, RunsCarryTheirSourceAndTheReportItsProvenance) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "2000").status, 0);
    ASSERT_EQ(seed_run(db, dir.path(), "2000", {"--c2c", "auto"}).status, 0);

    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0]["source"], "measured");
    EXPECT_EQ(runs[0]["c2c_reason"], "ran with --c2c off");
    EXPECT_EQ(runs[1]["source"], "traced");
    EXPECT_THAT(runs[1]["c2c_reason"].get<std::string>(), HasSubstr("--c2c auto chose software"));

    const auto off = run_cli({"report", "1", "--db", db}, dir.path());
    EXPECT_NE(off.status, 0);
    EXPECT_THAT(off.err, HasSubstr("ran with --c2c off"));

    const auto json = run_cli({"report", "2", "--json", "--db", db}, dir.path());
    ASSERT_EQ(json.status, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["run"]["source"], "traced");
    const auto& p = j["provenance"];
    EXPECT_EQ(p["throughput_source"], "traced");
    EXPECT_EQ(p["c2c_source"], "replayed");
    EXPECT_EQ(p["clock"], "operation");
    EXPECT_EQ(p["model_cpus"], "recorded");
    EXPECT_EQ(p["cost_table"], "builtin:ccbench");
    EXPECT_TRUE(p["dropped_records"].is_number());
    // Counters keep their unit, source and multiplexing flag; one the VM lacks says why.
    bool task_clock = false;
    for (const auto& m : j["metrics"])
        if (m["name"] == "task-clock") {
            task_clock = true;
            EXPECT_EQ(m["unit"], "ns");
            EXPECT_EQ(m["source"], "traced");
            EXPECT_TRUE(m["scaled"].is_boolean());
        } else if (m["name"].get<std::string>().starts_with("c2c.")) {
            EXPECT_EQ(m["source"], "replayed") << m.dump();
        } else if (!m["available"].get<bool>()) {
            EXPECT_TRUE(m["value"].is_null());
            EXPECT_FALSE(m["reason"].get<std::string>().empty()) << m.dump();
        }
    EXPECT_TRUE(task_clock);

    const auto text = run_cli({"report", "2", "--db", db}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("# throughput: traced"));
    EXPECT_THAT(text.out, HasSubstr("Est. cycles: an estimate from the built-in ccbench table"));
}

// A prediction has no throughput of its own: it states the traced operations it replayed.
TEST(CliProvenance, StoredPredictionDoesNotInheritThroughput) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "2000", {"--c2c", "software"}).status, 0);
    const auto predict = run_cli(
        {"predict", "1", "--layout", "page_counter=v6.1", "--store", "--db", db}, dir.path());
    ASSERT_EQ(predict.status, 0) << predict.err;
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1]["source"], "predicted");
    EXPECT_EQ(runs[1]["predicted_from"], 1);
    EXPECT_TRUE(runs[1]["ops"].is_null());
    EXPECT_TRUE(runs[1]["ops_per_s"].is_null());
    EXPECT_TRUE(runs[1]["duration_s"].is_null());
    EXPECT_THAT(runs[1]["c2c_reason"].get<std::string>(), HasSubstr("traced operations"));
}

// Failure 5: a database in a read-only folder is readable; writes are refused clearly. Root
// ignores permissions, so as root the reader runs as nobody (setpriv, util-linux).
TEST(CliProvenance, ReadOnlyFolderCanBeReadNotWritten) {
    TempDir dir;
    const auto folder = dir / "ro";
    std::filesystem::create_directories(folder);
    const auto db = (folder / "p.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "2000", {"--c2c", "software"}).status, 0);
    std::filesystem::permissions(dir.path(), std::filesystem::perms(0777));
    ::chmod(db.c_str(), 0644);
    ::chmod(folder.c_str(), 0555);
    const bool root = ::geteuid() == 0;
    if (root && std::system("command -v setpriv >/dev/null") != 0)
        GTEST_SKIP() << "running as root without setpriv: cannot drop the privilege to test this";
    const std::string probe = "setpriv --reuid=65534 --regid=65534 --clear-groups test -x " +
                              shell_quote((bin_dir() / "hitmap-collect").string());
    if (root && std::system(probe.c_str()) != 0)
        GTEST_SKIP() << "the build folder is not reachable for an unprivileged user (a parent "
                        "folder without o+x): cannot run the reader without root's rights";
    const auto as_reader = [&](std::vector<std::string> args) {
        const std::string bin = (bin_dir() / "hitmap-collect").string();
        std::string cmd = root ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
        cmd += shell_quote(bin);
        for (const auto& a : args)
            cmd += " " + shell_quote(a);
        const auto out = dir / "out.txt";
        const auto err = dir / "err.txt";
        cmd += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
        const int raw = std::system(cmd.c_str());
        return CliResult{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(out), read_file(err)};
    };
    const auto show = as_reader({"show", "--db", db});
    EXPECT_EQ(show.status, 0) << show.err;
    EXPECT_THAT(show.out, HasSubstr("page-counter-charge"));
    const auto report = as_reader({"report", "1", "--db", db});
    EXPECT_EQ(report.status, 0) << report.err;
    const auto predict = as_reader({"predict", "1", "--layout", "page_counter=v6.1", "--db", db});
    EXPECT_EQ(predict.status, 0) << predict.err;
    const auto write = as_reader({"import", "lockstat", "/dev/null", "--db", db});
    EXPECT_NE(write.status, 0);
    EXPECT_EQ(count_lines(write.err), 1) << write.err;
    ::chmod(folder.c_str(), 0755);
}

// Failure 9: a write refused for a full disk leaves no run row. The file-size limit makes
// every write past it fail as a full disk would (EFBIG; SIGXFSZ ignored).
TEST(CliProvenance, RefusedImportLeavesNoRunRow) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "2000").status, 0);
    std::string big(kLockStat);
    for (int i = 0; i < 4000; ++i)
        big += fmt::format("                          lock-{:05}:         11526          11488"
                           "           0.10         20.00         300.00           0.03"
                           "          22000          90000           0.05         10.00"
                           "        1000.00           0.01\n",
                           i);
    const auto file = write_text(dir, "big.txt", big);
    const auto size = std::filesystem::file_size(db);
    // ulimit -f counts 512-byte blocks; allow the database to grow by a few pages only.
    const std::string cmd = fmt::format(
        "trap '' XFSZ; ulimit -f {}; exec {} import lockstat {} --db {} >/dev/null 2>{}",
        size / 512 + 16, shell_quote((bin_dir() / "hitmap-collect").string()),
        shell_quote(file.string()), shell_quote(db), shell_quote((dir / "err.txt").string()));
    const int raw = std::system(("sh -c " + shell_quote(cmd)).c_str());
    ASSERT_TRUE(WIFEXITED(raw));
    EXPECT_NE(WEXITSTATUS(raw), 0);
    EXPECT_EQ(count_lines(read_file(dir / "err.txt")), 1) << read_file(dir / "err.txt");
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 1u) << "the refused import left a run row";
    EXPECT_EQ(runs[0]["status"], "complete");
}

// Failure 9: trace files no stored run owns (a failed or killed run's) are removed by the
// next run; the traces of stored runs stay.
TEST(CliProvenance, OrphanTracesAreRemovedAndStoredOnesKept) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "2000", {"--c2c", "software"}).status, 0);
    const auto traces = dir / "p.db.traces";
    ASSERT_TRUE(std::filesystem::exists(traces / "run-1.trace.zst"));
    std::ofstream(traces / "run-7.trace.zst") << "left by a killed run";
    std::ofstream(traces / "run-1.trace.zst.partial") << "half written";
    std::ofstream(traces / "notes.txt") << "not ours";

    ASSERT_EQ(seed_run(db, dir.path(), "2000").status, 0);
    EXPECT_TRUE(std::filesystem::exists(traces / "run-1.trace.zst"));
    EXPECT_FALSE(std::filesystem::exists(traces / "run-7.trace.zst"));
    EXPECT_FALSE(std::filesystem::exists(traces / "run-1.trace.zst.partial"));
    EXPECT_TRUE(std::filesystem::exists(traces / "notes.txt")) << "only run-N files are ours";
    EXPECT_EQ(run_cli({"predict", "1", "--db", db}, dir.path()).status, 0);
}

// Unknown is not zero in lock_stat text either: perf lock has no acquisitions or hold times,
// so those columns print "-" and the header says which columns the source could not measure.
TEST(CliProvenance, LockColumnsASourceLacksPrintAsDashAndAreNamed) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    const auto file = write_text(dir, "perf.txt",
                                 " contended   total wait     max wait     avg wait         type   "
                                 "caller\n\n        12     4.00 us      1.00 us      0.33 us     "
                                 "spinlock   foo+0x1\n");
    ASSERT_EQ(run_cli({"import", "perf-lock", file.string(), "--db", db}, dir.path()).status, 0);
    const auto r = run_cli({"report", "1", "--locks", "--db", db}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("# not measured by this source, shown as -: con-bounces, "
                                 "waittime-min, acq-bounces, acquisitions, holdtime-min"));
    EXPECT_THAT(r.out, ::testing::MatchesRegex(
                           "(.|\n)*foo\\+0x1: +- +12 +- +1\\.00 +4\\.00 +0\\.33 +- +-(.|\n)*"));
}

// Failure 4: a database copied or renamed with its trace folder keeps its traces.
TEST(CliTraceFiles, CopiedDatabaseFindsItsTraces) {
    TempDir dir;
    const auto db = (dir / "g.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "2000", {"--c2c", "software"}).status, 0);
    std::filesystem::copy_file(db, dir / "x.db");
    std::filesystem::copy(dir / "g.db.traces", dir / "x.db.traces");
    std::filesystem::remove_all(dir / "g.db.traces");
    const auto predict =
        run_cli({"predict", "1", "--layout", "page_counter=v6.1", "--db", (dir / "x.db").string()},
                dir.path());
    EXPECT_EQ(predict.status, 0) << predict.err;
}

// Failure 6: a trace that is not the one the run stored is refused, naming the file.
class CliTraceDamage : public ::testing::TestWithParam<const char*> {};

TEST_P(CliTraceDamage, PredictRefusesADamagedTrace) {
    TempDir dir;
    const auto db = (dir / "g.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "3000", {"--c2c", "software"}).status, 0);
    const auto trace = dir / "g.db.traces" / "run-1.trace.zst";
    std::string bytes = read_file(trace);
    ASSERT_GT(bytes.size(), 64u);
    const std::string damage = GetParam();
    if (damage == "flip")
        bytes[bytes.size() / 2] ^= 0x01;
    else if (damage == "append")
        bytes += "garbage";
    else if (damage == "truncate")
        bytes.resize(bytes.size() - 9);
    else if (damage == "zeros")
        std::fill(bytes.begin() + 32, bytes.end(), '\0');
    std::ofstream(trace, std::ios::binary | std::ios::trunc) << bytes;

    const auto predict =
        run_cli({"predict", "1", "--layout", "page_counter=v6.1", "--db", db}, dir.path());
    EXPECT_NE(predict.status, 0) << "a damaged trace was replayed: " << predict.out;
    EXPECT_EQ(count_lines(predict.err), 1) << predict.err;
    EXPECT_THAT(predict.err, HasSubstr("run-1.trace.zst"));
}

INSTANTIATE_TEST_SUITE_P(Damage, CliTraceDamage,
                         ::testing::Values("flip", "append", "truncate", "zeros"));

} // namespace
} // namespace hitmap::testing
