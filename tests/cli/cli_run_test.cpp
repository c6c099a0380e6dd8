// hitmap-collect list / run / show / suite, end to end on temporary databases.
#include "collector/store/database.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <unistd.h>

namespace hitmap::testing {
namespace {

TEST(Cli, ListNamesThePageCounterVariants) {
    TempDir dir;
    const CliResult r = run_cli({"list", "--json"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::vector<std::string> variants;
    for (const auto& w : j["workloads"])
        if (w["name"] == "page-counter-charge")
            for (const auto& v : w["variants"])
                variants.push_back(v["name"]);
    EXPECT_EQ(variants, (std::vector<std::string>{"v6.0", "v6.0+p1", "v6.0+p2", "v6.0+p3",
                                                  "v6.0+p1-2", "v6.1", "v6.15"}));
    std::vector<std::string> machines;
    for (const auto& m : j["machines"])
        machines.push_back(m["name"]);
    // `host` has no description until a run measures it, so only the text names it.
    EXPECT_EQ(machines, (std::vector<std::string>{"xeon-2s-72", "cascadelake-2s-96", "epyc-2s-256",
                                                  "cooperlake-4s-144"}));

    const CliResult text = run_cli({"list"}, dir.path());
    ASSERT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("page-counter-charge"), std::string::npos);
    EXPECT_NE(text.out.find("v6.0+p1-2"), std::string::npos);
    EXPECT_NE(text.out.find("xeon-2s-72         72 CPUs"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("host               this machine"), std::string::npos) << text.out;
}

// Issue 34: `list machines` (refused before) prints that section alone, in text and JSON.
TEST(Cli, ListMachinesPrintsTheMachinesAlone) {
    TempDir dir;
    const CliResult text = run_cli({"list", "machines"}, dir.path());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_EQ(text.out.find("page-counter-charge"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("layouts"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("cooperlake-4s-144  144 CPUs, 4 sockets x 18 cores x 2 threads"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("144 CPUs: 4 sockets x 18 cores x 2 threads; transfer 47 / 47 / 134"),
              std::string::npos)
        << text.out;

    const CliResult json = run_cli({"list", "machines", "--json"}, dir.path());
    ASSERT_EQ(json.status, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_FALSE(j.contains("workloads"));
    EXPECT_FALSE(j.contains("layouts"));
    const auto& m = j.at("machines").back();
    EXPECT_EQ(m["name"], "cooperlake-4s-144");
    EXPECT_EQ(m["sockets"], 4);
    EXPECT_EQ(m["cores_per_socket"], 18);
    EXPECT_EQ(m["threads_per_core"], 2);
    EXPECT_NE(m["latency_source"].get<std::string>().find("nviennot/core-to-core-latency"),
              std::string::npos);

    const CliResult bad = run_cli({"list", "nodes"}, dir.path());
    EXPECT_NE(bad.status, 0);
    EXPECT_NE(bad.err.find("nodes"), std::string::npos) << bad.err;
}

TEST(Cli, RunStoresCompleteRunsWithOpsAndTaskClock) {
    TempDir dir;
    const auto db = dir / "a.db";
    const CliResult r =
        run_cli({"run", "page-counter-charge", "--variant", "v6.0,v6.1", "--threads", "2",
                 "--duration", "300ms", "--c2c", "off", "--db", db.string()},
                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("v6.0"), std::string::npos);

    auto store = store::Database::open(db, {.create_if_missing = false, .read_only = true});
    const auto runs = store.runs({.status = store::RunStatus::complete});
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        EXPECT_EQ(run.threads, 2);
        ASSERT_TRUE(run.ops.has_value());
        EXPECT_GT(*run.ops, 0);
        EXPECT_GT(run.ops_per_s.value_or(0), 0);
        bool task_clock = false, cycles_accounted = false;
        for (const auto& m : store.metrics(run.id)) {
            if (m.name == "task-clock") {
                task_clock = m.available && m.value.value_or(0) > 0;
            }
            if (m.name == "cycles") // measured or unavailable with a reason, never a made-up zero
                cycles_accounted =
                    m.available ? m.value.has_value() : m.reason.has_value() && !m.value;
        }
        EXPECT_TRUE(task_clock) << "run " << run.id;
        EXPECT_TRUE(cycles_accounted) << "run " << run.id;
    }
    EXPECT_EQ(runs[0].variant, "v6.0");
    EXPECT_EQ(runs[1].variant, "v6.1");
    EXPECT_EQ(nlohmann::json::parse(runs[1].params_json)["batch"], 64);
}

TEST(Cli, RepeatAndThreadListsPlanEveryCombination) {
    TempDir dir;
    const auto db = dir / "r.db";
    const CliResult r = run_cli({"run", "page-counter-charge", "--variant", "v6.15", "--threads",
                                 "1,2", "--iterations", "20000", "--repeat", "2", "--c2c", "off",
                                 "--json", "--db", db.string()},
                                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto table = nlohmann::json::parse(r.out);
    ASSERT_EQ(table.size(), 2u);
    EXPECT_EQ(table[0]["threads"], 1);
    EXPECT_EQ(table[0]["run_ids"].size(), 2u);
    auto store = store::Database::open(db, {.create_if_missing = false, .read_only = true});
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(*runs[0].ops, 20000); // 1 thread x 20000 iterations
    EXPECT_EQ(*runs[2].ops, 40000); // 2 threads
}

// Live, but the answer depends only on whether this machine samples memory (doctor says).
TEST(Cli, HardwareC2cFailsFastWithoutSamplingAndAutoFallsBack) {
    TempDir dir;
    const CliResult doctor = run_cli({"doctor", "--json"}, dir.path());
    ASSERT_EQ(doctor.status, 0) << doctor.err;
    const nlohmann::json capabilities = nlohmann::json::parse(doctor.out)["capabilities"];
    for (const auto& c : capabilities)
        if (c["key"] == "precise_memory_sampling" && c["available"].get<bool>())
            GTEST_SKIP() << "this machine samples memory: --c2c hardware runs here";
    const auto db = (dir / "hw.db").string();
    const std::vector<std::string> run{
        "run",  "page-counter-charge", "--variant", "v6.1", "--threads", "2", "--duration",
        "50ms", "--progress",          "none",      "--db", db};
    auto hardware = run;
    hardware.insert(hardware.end(), {"--c2c", "hardware"});
    const CliResult refused = run_cli(hardware, dir.path());
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.err.find("--c2c hardware: no"), std::string::npos) << refused.err;
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << "refused before anything is stored";

    auto automatic = run;
    automatic.insert(automatic.end(), {"--c2c", "auto"});
    ASSERT_EQ(run_cli(automatic, dir.path()).status, 0);
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["c2c_source"], "software");
    EXPECT_EQ(runs[0]["c2c_reason"].get<std::string>().find("--c2c auto chose software: no"), 0u);
}

TEST(Cli, ShowListsStoredRuns) {
    TempDir dir;
    const auto db = dir / "s.db";
    ASSERT_EQ(seed_run(db.string(), dir.path(), "1000").status, 0);
    const CliResult r = run_cli({"show", "--json", "--db", db.string()}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto runs = nlohmann::json::parse(r.out);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["status"], "complete");
    EXPECT_EQ(runs[0]["ops"], 1000);
}

// Bad input: one line on stderr, non-zero exit, and the database is left exactly as it was.
class CliBadInput : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CliBadInput, FailsWithOneLineAndLeavesTheDatabaseUnchanged) {
    TempDir dir;
    const auto db = dir / "keep.db";
    ASSERT_EQ(seed_run(db.string(), dir.path(), "500").status, 0);
    { // fold the WAL into the file so its bytes are the whole state
        auto s = store::Database::open(db);
        store::sql_connection(s).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    const std::string before = read_file(db);
    std::vector<std::string> args = GetParam();
    args.push_back("--db");
    args.push_back(db.string());
    const CliResult r = run_cli(args, dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(db), before);
}

INSTANTIATE_TEST_SUITE_P(
    Cli, CliBadInput,
    ::testing::Values(
        std::vector<std::string>{"run", "no-such-workload"},
        std::vector<std::string>{"run", "page-counter-charge", "--variant", "v9.9"},
        std::vector<std::string>{"run", "page-counter-charge", "--duration", "soon"},
        std::vector<std::string>{"run", "page-counter-charge", "--threads", "0"},
        std::vector<std::string>{"run", "page-counter-charge", "--param", "depth=0"},
        std::vector<std::string>{"run", "page-counter-charge", "--param", "nope=1"},
        std::vector<std::string>{"run", "page-counter-charge", "--layout", "page_counter=v1.0"},
        std::vector<std::string>{"run", "page-counter-charge", "--layout",
                                 "page_counter=/no/such.json"},
        std::vector<std::string>{"run", "page-counter-charge", "--c2c", "psychic"},
        std::vector<std::string>{"run", "page-counter-charge", "--trace-clock", "sundial"},
        std::vector<std::string>{"run", "page-counter-charge", "--bogus-flag"},
        // Issue 9, failure 1: memory a run would need is checked before it starts.
        std::vector<std::string>{"run", "page-counter-charge", "--threads", "4096"},
        // Failure 2: counts that wrapped, were zero or leaked an SQL error.
        std::vector<std::string>{"run", "page-counter-charge", "--iterations", "-5"},
        std::vector<std::string>{"run", "page-counter-charge", "--iterations", "0"},
        std::vector<std::string>{"run", "page-counter-charge", "--iterations", "1e3"},
        std::vector<std::string>{"run", "page-counter-charge", "--duration", "1e12s"},
        std::vector<std::string>{"run", "page-counter-charge", "--repeat", "-1"},
        std::vector<std::string>{"run", "page-counter-charge", "--trace-mb", "1e9G"},
        std::vector<std::string>{"report", "1", "--lines", "-1"},
        // Failure 10: conflicting values and layouts of structs the workload does not use.
        std::vector<std::string>{"run", "page-counter-charge", "--param", "batch=16", "--param",
                                 "batch=64"},
        std::vector<std::string>{"run", "page-counter-charge", "--layout", "page_counter=v6.0",
                                 "--layout", "page_counter=v6.1"},
        std::vector<std::string>{"run", "page-counter-charge", "--layout", "memcg_stock_pcp=v5.10"},
        std::vector<std::string>{"run", "res-counter-charge", "--layout", "page_counter=v6.1"},
        // Issue 11: simulated machines.
        std::vector<std::string>{"run", "page-counter-charge", "--simulate", "no-such-machine",
                                 "--threads", "2"},
        std::vector<std::string>{"run", "page-counter-charge", "--simulate", "xeon-2s-72",
                                 "--threads", "73"},
        std::vector<std::string>{"run", "page-counter-charge", "--simulate", "xeon-2s-72"},
        std::vector<std::string>{"run", "page-counter-charge", "--simulate", "xeon-2s-72",
                                 "--threads", "2", "--kernel-locks"},
        std::vector<std::string>{"run", "page-counter-charge", "--calibration", "c.json"},
        std::vector<std::string>{"run", "page-counter-charge", "--simulate", "xeon-2s-72",
                                 "--threads", "2", "--calibration", "/no/such.json"}));

// Failure 10: a filter that matches nothing says which, and whether the workload exists.
TEST(Cli, ShowOfAnUnknownWorkloadSaysSo) {
    TempDir dir;
    const auto db = (dir / "s.db").string();
    ASSERT_EQ(seed_run(db, dir.path(), "100").status, 0);
    const CliResult none = run_cli({"show", "--workload", "nosuch", "--db", db}, dir.path());
    EXPECT_EQ(none.status, 0);
    EXPECT_NE(none.out.find("no runs of workload 'nosuch'"), std::string::npos) << none.out;
    EXPECT_NE(none.out.find("no such workload is registered"), std::string::npos) << none.out;
    const CliResult known =
        run_cli({"show", "--workload", "res-counter-charge", "--db", db}, dir.path());
    EXPECT_NE(known.out.find("no runs of workload 'res-counter-charge'"), std::string::npos);
    EXPECT_EQ(known.out.find("registered"), std::string::npos) << known.out;
}

// In a terminal stderr's bar and stdout's table share the screen: the bar's last line ends
// before the table starts (the table's header was glued to it). A terminal is what shows it:
// stdout is line-buffered there, so the table is written before the run ends.
TEST(Cli, ProgressBarEndsItsLineBeforeTheTable) {
    if (std::system("command -v script >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "script(1) (util-linux) is needed for a terminal";
    TempDir dir;
    const auto both = dir / "terminal.txt";
    const std::string run = shell_quote(hitmap_collect()) +
                            " run page-counter-charge --variant v6.0 --threads 1 --iterations 200"
                            " --c2c off --db " +
                            shell_quote((dir / "runs.db").string());
    const std::string cmd = "script -q -c " + shell_quote(run) + " /dev/null >" +
                            shell_quote(both.string()) + " 2>&1 </dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    std::string text = read_file(both);
    std::erase(text, '\r'); // the terminal's line ends
    const std::size_t table = text.find("variant ");
    ASSERT_NE(table, std::string::npos) << text;
    ASSERT_GT(table, 0u) << text;
    EXPECT_EQ(text[table - 1], '\n') << text;
    EXPECT_NE(text.rfind("ops/s", table), std::string::npos) << text; // the bar's last line
}

TEST(Cli, VersionIsPrinted) {
    TempDir dir;
    const CliResult r = run_cli({"--version"}, dir.path());
    EXPECT_EQ(r.status, 0);
    // The version, then the commit the sources were at when built from a git checkout.
    const std::string named = "hitmap-collect " HITMAP_PROJECT_VERSION;
    EXPECT_EQ(r.out.rfind(named, 0), 0u) << r.out;
    EXPECT_TRUE(r.out == named + "\n" || r.out.starts_with(named + " (commit ")) << r.out;
}

TEST(Cli, NonHitmapFileIsRefusedUntouched) {
    TempDir dir;
    const auto path = dir / "notes.txt";
    { std::ofstream(path) << "these are my notes, not a database\n"; }
    const std::string before = read_file(path);
    const CliResult r = run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--threads",
                                 "1", "--iterations", "100", "--c2c", "off", "--db", path.string()},
                                dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(read_file(path), before);
}

TEST(Cli, UnwritableDatabaseDirectoryIsAClearError) {
    TempDir dir;
    const CliResult r =
        run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--threads", "1",
                 "--iterations", "100", "--c2c", "off", "--db", "/proc/hitmap/x.db"},
                dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(Cli, EverySubcommandHasHelp) {
    TempDir dir;
    for (const char* cmd : {"list", "run", "suite", "show"}) {
        const CliResult r = run_cli({cmd, "--help"}, dir.path());
        EXPECT_EQ(r.status, 0) << cmd;
        EXPECT_NE(r.out.find("--"), std::string::npos) << cmd;
    }
}

} // namespace
} // namespace hitmap::testing

namespace hitmap::testing {
namespace {

// SIGTERM (the GUI's Cancel, a CI timeout) stops the current run at once, stores it as
// cancelled and starts no further run; earlier data stays intact. The signal is sent once the
// run reports it is running (--progress json on stderr), not after a fixed delay: a loaded VM
// may take longer than any delay to start it.
TEST(Cli, SigtermStoresTheRunAsCancelledAndStopsThePlan) {
    TempDir dir;
    const auto db = dir / "k.db";
    int err[2];
    ASSERT_EQ(::pipe2(err, O_CLOEXEC), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const std::string bin = hitmap_collect(), db_arg = db.string();
    std::vector<std::string> args{bin,         "run",        "page-counter-charge",
                                  "--variant", "v6.0,v6.1",  "--threads",
                                  "1",         "--duration", "60s",
                                  "--c2c",     "off",        "--progress",
                                  "json",      "--db",       db_arg};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, bin.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(err[1]);
    // Blocks on the pipe until the first "running" line; EOF (the CLI died) ends it too.
    std::string seen;
    char buf[4096];
    ssize_t n = 0;
    while (seen.find("\"phase\":\"running\"") == std::string::npos &&
           (n = ::read(err[0], buf, sizeof buf)) > 0)
        seen.append(buf, static_cast<std::size_t>(n));
    const bool running = seen.find("\"phase\":\"running\"") != std::string::npos;
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(err[0]);
    ASSERT_TRUE(running) << seen;
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130) << "the exit status of an interrupted command";
    auto store = store::Database::open(db, {.create_if_missing = false, .read_only = true});
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u) << "the second planned run must not start";
    EXPECT_EQ(runs[0].status, store::RunStatus::cancelled);
    // The operations done until the signal are stored (how many depends on the scheduler).
    EXPECT_TRUE(runs[0].ops.has_value());
}

// A stored run's object names print escaped in the cacheline report's text: they come from
// databases this version did not write.
TEST(Cli, CachelineReportEscapesControlCharactersInNames) {
    TempDir dir;
    const auto db = dir / "c2c.db";
    ASSERT_EQ(seed_run(db.string(), dir.path(), "200", {"--c2c", "software"}).status, 0);
    {
        auto store = store::Database::open(db);
        store::sql_connection(store).exec("UPDATE object SET name = 'obj' || char(27) || '[31m'");
    }
    // --all-lines: a one-thread run has transfers only when the thread moved between CPUs.
    const CliResult r = run_cli({"report", "1", "--all-lines", "--db", db.string()}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("obj\\x1b[31m ["), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

} // namespace
} // namespace hitmap::testing
