// The CLI's edges (issue 32): names from outside printed escaped, numbers out of range and
// option clashes refused in one line in the project's words, running out of memory said as
// such, and a run whose trace kept only its start warned about.
#include "tests/cli/cli_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// ESC, BEL, the right-to-left override U+202E and the isolate U+2066, raw.
const auto kRawControls = AllOf(Not(HasSubstr("\x1b")), Not(HasSubstr("\x07")),
                                Not(HasSubstr("\u202E")), Not(HasSubstr("\u2066")));

// One line on stderr, a non-zero status, and the words expected.
void expect_refused(const CliResult& r, const std::string& message) {
    EXPECT_NE(r.status, 0) << message;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr(message));
}

TEST(CliEdges, NamesFromAPluginArePrintedEscaped) {
    TempDir dir;
    const CliResult r = run_cli({"--plugin", HITMAP_CONTROL_NAMES_PLUGIN, "list"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, kRawControls);
    EXPECT_THAT(r.out, HasSubstr("evil\\x1b[2J-\\u202eexe.txt  (seed plugin)"));
    EXPECT_THAT(r.out, HasSubstr("v\\x1b]0;title\\x07"));
    EXPECT_THAT(r.out, HasSubstr("n\\u2066"));
}

TEST(CliEdges, NamesFromADatabaseArePrintedEscaped) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "100").status, 0);
    {
        SQLite::Database sql(db, SQLite::OPEN_READWRITE);
        sql.exec("UPDATE run SET variant = 'v6.0' || char(0x202E) || 'gpj.exe' || char(27) || "
                 "'[2J'");
    }
    const CliResult shown = run_cli({"show", "--db", db}, dir.path());
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_THAT(shown.out, kRawControls);
    EXPECT_THAT(shown.out, HasSubstr("v6.0\\u202egpj.exe\\x1b[2J"));
    // A message quoting a name from the command line is one escaped line too.
    const CliResult refused = run_cli({"run", "x\u202E\nsecond line", "--db", db}, dir.path());
    expect_refused(refused, "unknown workload 'x\\u202e\\nsecond line'");
    EXPECT_THAT(refused.err, kRawControls);
}

TEST(CliEdges, IterationsWithDurationIsRefused) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    expect_refused(seed_run(db, dir.path(), "100", {"--c2c", "off", "--duration", "1s"}),
                   "--iterations and --duration both say when a run stops: give one");
    EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CliEdges, NumbersOutOfRangeAreRefusedInTheProjectsWords) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    const auto predict = [&](std::vector<std::string> extra) {
        std::vector<std::string> args{"predict", "1", "--db", db};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args, dir.path());
    };
    for (const auto& [args, message] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--optimize", "mem_cgroup", "--candidates", "-1"},
              "--candidates '-1' must be a whole number in 1..20"},
             {{"--optimize", "mem_cgroup", "--candidates", "21"}, "--candidates"},
             {{"--optimize", "mem_cgroup", "--max-size", "-1"},
              "--max-size '-1' must be a whole number"},
             {{"--line", "-64"}, "--line '-64' must be a whole number in 64..128"}}) {
        const CliResult r = predict(args);
        expect_refused(r, message);
        EXPECT_THAT(r.err, Not(HasSubstr("18446744073709551615")));
        EXPECT_THAT(r.err, Not(HasSubstr("Could not convert")));
    }
    for (const auto& [param, message] : std::vector<std::pair<std::string, std::string>>{
             {"inflight=99999999999",
              "page-counter-charge parameter inflight must be a whole number in 1..65536, not "
              "99999999999"},
             {"inflight=0", "parameter inflight must be a whole number in 1..65536, not 0"},
             {"inflight=1.5", "parameter inflight must be a whole number in 1..65536, not 1.5"},
             {"inflight=-1", "parameter inflight must be a whole number in 1..65536, not -1"},
             {"work_ns=4294967296", "parameter work_ns must be a whole number in 0..100000000"},
             {"stats=3", "page-counter-charge parameter stats must be true or false, not 3"}}) {
        const CliResult r = seed_run(db, dir.path(), "100", {"--c2c", "off", "--param", param});
        expect_refused(r, message);
        // nlohmann's names for JSON types.
        EXPECT_THAT(r.err, Not(HasSubstr("number value"))) << param;
        EXPECT_THAT(r.err, Not(HasSubstr("boolean value"))) << param;
    }
    EXPECT_FALSE(std::filesystem::exists(db));
}

// A virtual-memory limit below what the trace buffers need: the run fails in words, not with the
// library's "std::bad_alloc".
TEST(CliEdges, OutOfMemoryIsSaidInWords) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    // 512 MiB of address space; the trace buffer alone asks for 1 GiB.
    const CliResult r =
        run_command({"prlimit", "--as=536870912", hitmap_collect(), "run", "page-counter-charge",
                     "--variant", "v6.0", "--threads", "1", "--iterations", "100", "--c2c",
                     "software", "--trace-mb", "1024", "--progress", "none", "--db", db},
                    dir.path());
    // An AddressSanitizer build (the CI's ASan tree runs these tests against its binary)
    // reserves terabytes of shadow memory at start-up and cannot run under any such limit.
    if (r.err.find("AddressSanitizer failed to allocate") != std::string::npos)
        GTEST_SKIP() << "hitmap-collect is an AddressSanitizer build: no address-space limit "
                        "can apply to it";
    EXPECT_NE(r.status, 0);
    EXPECT_THAT(r.out + r.err, HasSubstr("out of memory"));
    EXPECT_THAT(r.out + r.err, Not(HasSubstr("std::bad_alloc")));
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_THAT(runs[0]["note"].get<std::string>(), HasSubstr("out of memory"));
}

// A trace buffer that fills keeps the start of the run only: 20,000 operations of about 18
// records each do not fit in 1 MiB (65,536 records). The run says so; a run whose trace holds
// it all does not.
TEST(CliEdges, ATraceBufferThatFilledIsWarnedAbout) {
    TempDir dir;
    const auto db = (dir / "x.db").string();
    const CliResult r = seed_run(db, dir.path(), "20000",
                                 {"--c2c", "software", "--trace-mb", "1", "--progress", "none"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("hitmap-collect: warning: run 1: its trace holds "));
    EXPECT_THAT(r.err, HasSubstr(" of its 20000 operations"));
    EXPECT_THAT(r.err, HasSubstr("a thread's 1 MiB trace buffer filled"));
    const CliResult enough =
        seed_run(db, dir.path(), "2000", {"--c2c", "software", "--progress", "none"});
    ASSERT_EQ(enough.status, 0) << enough.err;
    EXPECT_THAT(enough.err, Not(HasSubstr("warning")));
}

} // namespace
} // namespace hitmap::testing
