// `hitmap-collect record` as a user runs it, with a shell script standing in for perf
// (fake_perf.hpp): both recorders follow the command (or the whole machine), both reports land
// in one run with the --object structs placed, the command's exit status is reported and
// returned, and a perf that refuses leaves the database and TMPDIR as they were.
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/lock_tables.hpp"
#include "tests/cli/cli_test_support.hpp"
#include "tests/cli/fake_perf.hpp"
#include "tests/cli/perf_here.hpp"
#include "tests/support/scoped_tmpdir.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <optional>
#include <string>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

// A perf c2c report of three shared lines at 0x7f0000000000, +0x40 and +0x80, two Pareto rows
// each at offsets 0x0 and 0x8 (tests/data/README.md), and a perf lock contention table of three
// callers.
const fs::path kC2cReport = fs::path(HITMAP_TEST_DATA) / "captures" / "c2c-before.txt";
const fs::path kLockReport = fs::path(HITMAP_CLI_TEST_DATA) / "small-perf.txt";

// The "--pid=N" line of a recorder's argv.
std::string pid_argument(const std::string& args) {
    const std::size_t at = args.find("--pid=");
    return at == std::string::npos ? "" : args.substr(at, args.find('\n', at) - at);
}

// TMPDIR is the test's own folder for the collector it starts, so what perf and the command's
// gate leave behind can be seen.
class CliRecord : public ::testing::Test {
protected:
    // A perf whose reports are the fixtures and which keeps each recorder's argv in
    // c2c.args and lock.args.
    FakePerf working() const {
        FakePerf f;
        f.before_ack = fmt::format(R"(cp "$out" {}/"$1".args)", shell_quote(tmp_.path().string()));
        f.report = "cat " + shell_quote(kC2cReport.string());
        f.lock_report = "cat " + shell_quote(kLockReport.string());
        return f;
    }

    CliResult record(const FakePerf& f, std::vector<std::string> args) {
        write_fake_perf(f, tmp_ / "perf");
        args.insert(args.begin(),
                    {"record", "--perf", (tmp_ / "perf").string(), "--db", db().string()});
        return run_cli(args, tmp_.path());
    }

    fs::path db() const { return tmp_ / "rec.db"; }
    bool scratch_empty() const { return fs::is_empty(tmp_ / "tmp"); }
    std::string args_of(const std::string& recorder) const {
        return read_file(tmp_ / (recorder + ".args"));
    }

    TempDir tmp_;
    ScopedTmpdir tmpdir_{tmp_ / "tmp"};
};

TEST_F(CliRecord, CommandIntoOneRunWithCacheLinesLocksAndObjectsPlaced) {
    const CliResult r = record(working(), {"--object", "page_counter@0x7f0000000040:v6.0", "--",
                                           "sh", "-c", "echo from the command"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("from the command\n")); // the command's stdout is the user's
    EXPECT_THAT(r.out, HasSubstr("recorded run 1 into "));
    EXPECT_THAT(r.out, HasSubstr("(exit 0); perf c2c: 3 shared lines, HITM 96; perf lock: 3 "
                                 "contended locks\n"));
    EXPECT_TRUE(scratch_empty());
    // Both recorders followed the command's process (the held shell that became it), not this
    // machine.
    for (const std::string recorder : {"c2c", "lock"}) {
        const std::string args = args_of(recorder);
        EXPECT_THAT(args, HasSubstr(recorder + "\nrecord\n--output=")) << recorder;
        EXPECT_THAT(args, HasSubstr("\n--pid=")) << recorder;
        EXPECT_THAT(args, Not(HasSubstr("--all-cpus"))) << recorder;
        EXPECT_THAT(args, HasSubstr("\n--delay=-1\n--control=fifo:")) << recorder;
    }
    EXPECT_EQ(pid_argument(args_of("c2c")), pid_argument(args_of("lock")));

    store::Database db = store::Database::open(this->db());
    const auto runs = db.runs();
    ASSERT_EQ(runs.size(), 1u);
    const store::RunRecord& run = runs[0];
    EXPECT_EQ(run.workload, "record:perf");
    EXPECT_EQ(run.variant, "sh -c echo from the command");
    EXPECT_EQ(run.source, store::Source::measured);
    EXPECT_EQ(run.c2c_source, store::C2cSource::perf);
    EXPECT_EQ(run.threads, std::nullopt);
    EXPECT_THAT(run.note.value_or(""), HasSubstr("the command ended with exit 0"));

    const auto c2c = store::read_c2c(db, run.id);
    ASSERT_TRUE(c2c);
    EXPECT_EQ(c2c->trace.format, store::kPerfC2cReportFormat);
    EXPECT_FALSE(c2c->trace.known.traced_ops); // perf does not count the command's operations
    // The page_counter covers the second line (its first 64 bytes): that line carries its name
    // and field names; the lines outside it are objects named by their address.
    ASSERT_EQ(c2c->result.lines.size(), 3u);
    bool placed = false;
    for (const auto& f : c2c->result.fields)
        if (c2c->objects.at(f.line.object).name == "page_counter@0x7f0000000040") {
            placed = true;
            EXPECT_THAT(f.field_name, Not(::testing::StartsWith("+0x")));
        }
    EXPECT_TRUE(placed);
    EXPECT_EQ(c2c->result.totals.load_hitm, 96u);

    const auto locks = store::read_lock_table_headers(db, run.id);
    ASSERT_EQ(locks.size(), 1u);
    EXPECT_EQ(locks[0].data.source, store::LockSource::perf_lock);
    std::vector<std::string> names;
    store::for_each_lock_class(db, locks[0].id,
                               [&](const locks::LockClassStats& c) { names.push_back(c.name); });
    EXPECT_THAT(names, ::testing::ElementsAre("raw_spin_rq_lock_nested+0x1b", "ep_done_scan+0x2d",
                                              "do_user_addr_fault+0x1dd"));
}

TEST_F(CliRecord, TheCommandsExitStatusIsReportedAndReturned) {
    const CliResult r = record(working(), {"--", "sh", "-c", "exit 3"});
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_THAT(r.out, HasSubstr("of the command (exit 3);"));
    store::Database db = store::Database::open(this->db());
    const auto runs = db.runs();
    ASSERT_EQ(runs.size(), 1u); // the recording of a failing command is still a recording
    EXPECT_THAT(runs[0].note.value_or(""), HasSubstr("the command ended with exit 3"));
    EXPECT_THAT(runs[0].params_json, HasSubstr(R"("command_status":"exit 3")"));

    const CliResult killed = record(working(), {"--", "sh", "-c", "kill -TERM $$"});
    EXPECT_EQ(killed.status, 128 + 15) << killed.err;
    EXPECT_THAT(killed.out, HasSubstr("(signal 15 (Terminated))"));
}

TEST_F(CliRecord, WholeMachineForADuration) {
    const CliResult r = record(working(), {"-a", "--duration", "50ms", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["run"], 1);
    EXPECT_TRUE(j["command"].is_null());
    EXPECT_EQ(j["lock_classes"], 3);
    EXPECT_EQ(j["shared_lines"], 3);
    for (const std::string recorder : {"c2c", "lock"}) {
        EXPECT_THAT(args_of(recorder), HasSubstr("\n--all-cpus\n")) << recorder;
        EXPECT_THAT(args_of(recorder), Not(HasSubstr("--pid="))) << recorder;
    }
    store::Database db = store::Database::open(this->db());
    EXPECT_EQ(db.runs().at(0).variant, "system-wide");
    EXPECT_TRUE(scratch_empty());
}

TEST_F(CliRecord, RefusalNamesPerfsReasonAndChangesNothing) {
    // A database with a run in it, whose bytes must not change.
    ASSERT_EQ(record(working(), {"--", "true"}).status, 0);
    const std::string before = read_file(db());

    FakePerf no_pmu = working();
    no_pmu.probe = "echo 'failed: memory events not supported' >&2; exit 255";
    const CliResult r = record(no_pmu, {"--", "sh", "-c", "touch ran"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "hitmap-collect: error: record: perf c2c record failed: memory events not "
                     "supported (exit 255)\n");
    EXPECT_FALSE(fs::exists(tmp_ / "ran")); // the command never ran
    EXPECT_EQ(read_file(db()), before);
    EXPECT_TRUE(scratch_empty());

    FakePerf no_tracepoints = working();
    no_tracepoints.lock_probe = "echo 'Error:' >&2; echo 'lock contention tracepoints not "
                                "found' >&2; exit 1";
    const CliResult lock = record(no_tracepoints, {"--", "true"});
    EXPECT_EQ(lock.status, 1);
    EXPECT_EQ(lock.err, "hitmap-collect: error: record: perf lock record failed: lock contention "
                        "tracepoints not found (exit 1)\n");
    EXPECT_EQ(read_file(db()), before);

    // Without a database: none is created.
    fs::remove(db());
    EXPECT_EQ(record(no_pmu, {"-a", "--duration", "1s"}).status, 1);
    EXPECT_FALSE(fs::exists(db()));
    EXPECT_TRUE(scratch_empty());
}

TEST_F(CliRecord, UsageIsCheckedFirst) {
    const CliResult neither = record(working(), {});
    EXPECT_EQ(neither.status, 1);
    EXPECT_THAT(neither.err, HasSubstr("record needs -a (the whole machine) or a command"));
    const CliResult both = record(working(), {"-a", "--", "true"});
    EXPECT_EQ(both.status, 1);
    const CliResult duration = record(working(), {"--duration", "1s", "--", "true"});
    EXPECT_THAT(duration.err, HasSubstr("--duration bounds a whole-machine recording"));
    const CliResult missing = record(working(), {"--", "hitmap-test-no-such-command", "x"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_EQ(missing.err, "hitmap-collect: error: record: cannot run "
                           "hitmap-test-no-such-command: not found in PATH\n");
    const CliResult not_executable = record(working(), {"--", kLockReport.string()});
    EXPECT_THAT(not_executable.err, HasSubstr(": not an executable file\n"));
    EXPECT_FALSE(fs::exists(db()));
}

// As a user runs it here, with this machine's perf: where perf c2c record cannot record memory
// events (this VM), the refusal in perf's words, before the command runs or a database exists.
TEST(CliRecordHere, RefusesWithPerfsReasonBeforeTheCommandRuns) {
    TempDir tmp;
    const PerfC2cHere here = perf_c2c_here(tmp);
    if (here.skip)
        GTEST_SKIP() << *here.skip;
    const CliResult r =
        run_cli({"record", "--db", (tmp / "x.db").string(), "--", "touch", (tmp / "ran").string()},
                tmp.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err,
                ::testing::StartsWith("hitmap-collect: error: record: perf c2c record failed: "));
    EXPECT_THAT(r.err, ::testing::EndsWith(fmt::format(" (exit {})\n", here.status)));
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    if (here.said.starts_with("failed: ")) {
        EXPECT_THAT(r.err, HasSubstr(here.said.substr(8, here.said.find('\n') - 8)));
    }
    EXPECT_FALSE(fs::exists(tmp / "ran"));
    EXPECT_FALSE(fs::exists(tmp / "x.db"));
}

} // namespace
} // namespace hitmap::testing
