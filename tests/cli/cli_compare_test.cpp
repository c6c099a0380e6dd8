// `compare` and its gates end to end (issue 14), on simulated runs from a committed calibration,
// so every figure is exact: the same commit gives identical figures, an injected 10 % loss of
// ops/s trips `ops:-5%`, and the v6.0 page_counter layout under v6.1 trips `transfers:+20%`.
// Imports (issue 36) are compared as captured: two perf c2c reports by their lines' and fields'
// HITMs and shares, two lock_stat texts by their contentions and waits.
#include "tests/cli/cli_test_support.hpp"
#include "tests/perfc2c/c2c_text.hpp"

#include <SQLiteCpp/Database.h>
#include <fmt/format.h>
#include <fstream>
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

// Two captures of one program (synthetic perf c2c texts, 3 lines of 2 Pareto rows): the second
// has 10 more local HITMs on line 0, 30 -> 40 of 96 -> 106 captured, +33.3 % and
// 31.25 % -> 37.74 % of the HITMs (+6.5 points).
struct TwoCaptures {
    TempDir dir;
    std::string db = (dir / "c2c.db").string();
    CliResult import(const std::string& name, std::size_t hot_extra) {
        const auto file = dir / name;
        std::ofstream(file, std::ios::binary) << synthetic_report(3, 2, {}, hot_extra);
        return run_cli({"import", "perf-c2c", file.string(), "--db", db}, dir.path());
    }
    CliResult compare(const std::vector<std::string>& extra) {
        std::vector<std::string> args{"compare", "--db", db, "1", "2"};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args, dir.path());
    }
};

const nlohmann::json* change_named(const nlohmann::json& j, const std::string& figure) {
    for (const auto& c : j["changes"])
        if (c["figure"] == figure)
            return &c;
    return nullptr;
}

TEST(CliCompare, TwoPerfC2cImportsCompareByHitmAndShareAndTripTheirGates) {
    TwoCaptures t;
    ASSERT_EQ(t.import("before.txt", 0).status, 0);
    ASSERT_EQ(t.import("after.txt", 10).status, 0);

    const CliResult text = t.compare({});
    ASSERT_EQ(text.status, 0) << text.err;
    // Per line and per field, raw and as shares; the synthesized objects are named by address.
    EXPECT_THAT(text.out, HasSubstr("hitm[0x7f0000000000 line 0: +0x0..+0x8]"));
    EXPECT_THAT(text.out, HasSubstr("hitm-share[0x7f0000000000:+0x0]"));
    EXPECT_THAT(text.out, HasSubstr("+33.3%"));
    EXPECT_THAT(text.out, HasSubstr("+6.5pp"));
    // The two files differ in their code locations: named by size, not printed whole.
    EXPECT_THAT(text.out, Not(HasSubstr("bench.c")));
    EXPECT_LT(text.out.size(), 6000u);

    const CliResult json = t.compare({"--format", "json", "--limit", "0"});
    ASSERT_EQ(json.status, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    const auto* line = change_named(j, "hitm[0x7f0000000000 line 0: +0x0..+0x8]");
    ASSERT_TRUE(line);
    EXPECT_EQ(line->at("unit"), "samples");
    EXPECT_EQ(line->at("base").at("mean"), 30.0);
    EXPECT_EQ(line->at("current").at("mean"), 40.0);
    const auto* share = change_named(j, "hitm-share[0x7f0000000000 line 0: +0x0..+0x8]");
    ASSERT_TRUE(share);
    EXPECT_EQ(share->at("unit"), "% of captured HITM");
    EXPECT_NEAR(share->at("base").at("mean").get<double>(), 31.25, 1e-9);
    EXPECT_NEAR(share->at("current").at("mean").get<double>(), 100.0 * 40 / 106, 1e-9);
    EXPECT_NEAR(share->at("difference").get<double>(), 100.0 * 40 / 106 - 31.25, 1e-9);
    // Line 1 kept its 32 HITMs: its count did not change, its share fell.
    const auto* cool = change_named(j, "hitm[0x7f0000000040 line 0: +0x0..+0x8]");
    ASSERT_TRUE(cool);
    EXPECT_EQ(cool->at("change"), 0.0);

    // +33 % passes +40 % and trips +20 %; +6.5 points trips +5pp, not +7pp.
    EXPECT_EQ(t.compare({"--fail-on", "hitm:+40%"}).status, 0);
    const CliResult hitm = t.compare({"--fail-on", "hitm:+20%"});
    EXPECT_EQ(hitm.status, 1) << hitm.out;
    EXPECT_THAT(hitm.out, HasSubstr("+33.3% regression of"));
    EXPECT_THAT(hitm.out, HasSubstr("gate hitm:+20%"));
    EXPECT_EQ(t.compare({"--fail-on", "hitm-share:+7pp"}).status, 0);
    const CliResult points = t.compare({"--fail-on", "hitm-share:+5pp"});
    EXPECT_EQ(points.status, 1) << points.out;
    EXPECT_THAT(points.out, HasSubstr("+6.5pp regression of"));
    EXPECT_THAT(points.out, HasSubstr("gate hitm-share:+5pp"));
    // Back the other way nothing rose.
    EXPECT_EQ(run_cli({"compare", "--db", t.db, "2", "1", "--fail-on", "hitm:+20%,hitm-share:+5pp"},
                      t.dir.path())
                  .status,
              0);
}

// A lock_stat 0.3 table of one class, laid out as tests/cli/data/small-lockstat.txt.
std::string lock_stat_text(std::uint64_t contentions, double wait_total_us) {
    const std::string rule(70, '-');
    return fmt::format(
        "lock_stat version 0.3\n{0}\n{1:>40} {2:>14} {3:>14} {4:>14} {5:>14} {6:>14} "
        "{7:>14} {8:>14} {9:>14} {10:>14} {11:>14}\n{0}\n\n"
        "{12:>40} {13:>14} {14:>14} {15:>14.2f} {16:>14.2f} {17:>14.2f} {18:>14} "
        "{19:>14} {20:>14.2f} {21:>14.2f} {22:>14.2f}\n",
        rule, "class name", "con-bounces", "contentions", "waittime-min", "waittime-max",
        "waittime-total", "acq-bounces", "acquisitions", "holdtime-min", "holdtime-max",
        "holdtime-total", "&counter->lock:", contentions, contentions, 0.52, 16291.34,
        wait_total_us, 18742433, 45050576, 0.42, 30788.81, 9490908.36);
}

TEST(CliCompare, TwoLockImportsGateOnContentionsAndWait) {
    TempDir dir;
    const auto db = (dir / "locks.db").string();
    for (const auto& [name, contentions, wait] :
         {std::tuple{"before.txt", 1000u, 800.0}, std::tuple{"after.txt", 1250u, 880.0}}) {
        const auto file = dir / name;
        std::ofstream(file, std::ios::binary) << lock_stat_text(contentions, wait);
        const CliResult r = run_cli({"import", "lockstat", file.string(), "--db", db}, dir.path());
        ASSERT_EQ(r.status, 0) << r.err;
    }
    const auto compare = [&](const std::string& gates) {
        return run_cli({"compare", "--db", db, "1", "2", "--fail-on", gates}, dir.path());
    };
    const CliResult shown = compare("contentions:+30%,wait:+20%");
    EXPECT_EQ(shown.status, 0) << shown.out << shown.err;
    EXPECT_THAT(shown.out, HasSubstr("contentions[&counter->lock]"));
    EXPECT_THAT(shown.out, HasSubstr("+25.0%"));
    EXPECT_THAT(shown.out, HasSubstr("waits[&counter->lock]"));
    EXPECT_THAT(shown.out, HasSubstr("+10.0%"));
    const CliResult contentions = compare("contentions:+20%");
    EXPECT_EQ(contentions.status, 1);
    EXPECT_THAT(contentions.out, HasSubstr("gate contentions:+20%"));
    EXPECT_EQ(compare("wait:+10%").status, 1);
    EXPECT_EQ(compare("wait:+11%").status, 0);
}

// The committed database of captures (tests/data/README.md), opened read-only as CI would:
// its two perf c2c imports trip hitm:+20% (line 0: 30 -> 40), its lock imports contentions:+20%
// (1,196,935 -> 1,500,000: +25.3%).
TEST(CliCompare, TheCommittedCapturesGateAsCounted) {
    TempDir dir;
    const std::string db = std::string(HITMAP_TEST_DATA) + "/captures.db";
    const CliResult c2c =
        run_cli({"compare", "--db", db, "1", "2", "--fail-on", "hitm:+20%"}, dir.path());
    EXPECT_EQ(c2c.status, 1) << c2c.out << c2c.err;
    EXPECT_THAT(c2c.out, HasSubstr("(1 vs 1 runs, counts as captured)"));
    const CliResult locks =
        run_cli({"compare", "--db", db, "3", "4", "--fail-on", "contentions:+20%"}, dir.path());
    EXPECT_EQ(locks.status, 1) << locks.out << locks.err;
    EXPECT_THAT(locks.out, HasSubstr("+25.3% regression of"));
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
    EXPECT_THAT(err({"compare", "--db", db, "1", "2", "--fail-on", "hitm-share:+5%"}),
                HasSubstr("'hitm-share:+5%' does not end in 'pp'"));
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
