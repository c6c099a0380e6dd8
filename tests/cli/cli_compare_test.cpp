// `compare` and its gates end to end (issue 14), on simulated runs from a committed calibration,
// so every figure is exact: the same commit gives identical figures, an injected 10 % loss of
// ops/s trips `ops:-5%`, and the v6.0 page_counter layout under v6.1 trips `transfers:+20%`.
#include "tests/cli/cli_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kCalibration =
    std::string(HITMAP_TEST_DATA) + "/calibration/page-counter-charge.json";

CliResult simulate(const std::string& db, const TempDir& dir,
                   const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"run",           "page-counter-charge",
                                  "--variant",     "v6.1",
                                  "--simulate",    "xeon-2s-72",
                                  "--threads",     "8",
                                  "--iterations",  "300",
                                  "--calibration", kCalibration,
                                  "--progress",    "none",
                                  "--db",          db};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, dir.path());
}

const std::string kGates = "ops:-5%,transfers:+20%,contentions:+20%";

TEST(CliCompare, TheSameCommitSimulatesIdenticalFiguresAndPassesEveryGate) {
    TempDir dir;
    const auto base = (dir / "base.db").string(), current = (dir / "current.db").string();
    ASSERT_EQ(simulate(base, dir).status, 0);
    ASSERT_EQ(simulate(current, dir).status, 0);
    const CliResult r = run_cli({"compare", "--baseline", base, "--current", current, "--fail-on",
                                 kGates, "--format", "json"},
                                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_GT(j["changes"].size(), 10u); // ops/s and transfers of every field and line
    for (const auto& c : j["changes"]) {
        EXPECT_TRUE(c["deterministic"].get<bool>());
        EXPECT_EQ(c["base"], c["current"]) << c["figure"];
        if (!c["change"].is_null()) {
            EXPECT_EQ(c["change"].get<double>(), 0.0) << c["figure"];
        }
    }
    EXPECT_TRUE(j["regressions"].empty());
    EXPECT_EQ(r.err, ""); // simulated: no noise warning
}

TEST(CliCompare, AnInjectedTenPercentOpsLossTripsFivePercent) {
    TempDir dir;
    const auto base = (dir / "base.db").string(), current = (dir / "current.db").string();
    ASSERT_EQ(simulate(base, dir).status, 0);
    ASSERT_EQ(simulate(current, dir).status, 0);
    {
        SQLite::Database db(current, SQLite::OPEN_READWRITE);
        db.exec("UPDATE run SET ops_per_s = ops_per_s * 0.9");
    }
    const std::vector<std::string> args{"compare", "--baseline", base, "--current", current};
    const CliResult passed = run_cli(args, dir.path());
    EXPECT_EQ(passed.status, 0) << passed.err;
    EXPECT_THAT(passed.out, HasSubstr("-10.0%"));

    auto gated = args;
    gated.insert(gated.end(), {"--fail-on", kGates});
    const CliResult failed = run_cli(gated, dir.path());
    EXPECT_EQ(failed.status, 1) << failed.err;
    EXPECT_THAT(failed.out, HasSubstr("-10.0% regression of page-counter-charge v6.1, 8 threads, "
                                      "simulated:xeon-2s-72: ops_per_s "));
    EXPECT_THAT(failed.out, HasSubstr("(1 vs 1 run; gate ops:-5%)"));
    EXPECT_THAT(failed.out, Not(HasSubstr("gate transfers"))); // ops/s alone was changed

    gated.insert(gated.end(), {"--format", "md"});
    const CliResult md = run_cli(gated, dir.path());
    EXPECT_EQ(md.status, 1);
    EXPECT_THAT(md.out, HasSubstr("### hitmap compare: 1 regression\n"));
    EXPECT_THAT(md.out, HasSubstr("| ops\\_per\\_s |")); // rendered as ops_per_s
}

TEST(CliCompare, TheUnpaddedCounterLayoutTripsTheTransferGate) {
    TempDir dir;
    const auto db = (dir / "layouts.db").string();
    ASSERT_EQ(simulate(db, dir).status, 0);
    ASSERT_EQ(simulate(db, dir, {"--layout", "mem_cgroup=v6.0"}).status, 0);
    const CliResult r =
        run_cli({"compare", "--db", db, "1", "2", "--fail-on", "transfers:+20%"}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_THAT(r.out, HasSubstr("layout.mem_cgroup: \"v6.1\" -> \"v6.0\""));
    EXPECT_THAT(r.out, HasSubstr("regression of page-counter-charge: run 1 (v6.1) -> run 2 "
                                 "(v6.1): transfers["));
    EXPECT_THAT(r.out, HasSubstr("gate transfers:+20%"));
}

TEST(CliCompare, BadRequestsAreOneLineErrors) {
    TempDir dir;
    const auto db = (dir / "a.db").string();
    ASSERT_EQ(simulate(db, dir).status, 0);
    const auto err = [&](const std::vector<std::string>& args) {
        const CliResult r = run_cli(args, dir.path());
        EXPECT_NE(r.status, 0);
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        return r.err;
    };
    EXPECT_THAT(err({"compare", "--db", db, "1", "2", "--fail-on", "ops:-5"}),
                HasSubstr("'ops:-5' does not end in '%'"));
    EXPECT_THAT(err({"compare", "--db", db, "1", "7"}), HasSubstr("run 7 is not in"));
    EXPECT_THAT(err({"compare", "--db", db}), HasSubstr("two run ids"));
    EXPECT_THAT(err({"compare", "--baseline", db}), HasSubstr("--current"));
    // Nothing in common: a CI job comparing nothing must not pass.
    const auto other = (dir / "b.db").string();
    ASSERT_EQ(seed_run(other, dir.path(), "100").status, 0);
    EXPECT_THAT(err({"compare", "--baseline", db, "--current", other}),
                HasSubstr("matches one of"));
    EXPECT_THAT(err({"compare", "--baseline", db, "--current", (dir / "none.db").string()}),
                HasSubstr("none.db"));
}

} // namespace
} // namespace hitmap::testing
