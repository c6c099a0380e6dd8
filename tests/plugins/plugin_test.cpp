// Workload plugins end to end (issue 13): the example plugin through list, run (real threads
// and simulated), report and predict; libraries of another ABI or no plugin at all refused with
// one line and nothing stored.
#include "tests/cli/cli_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

const std::string kExample = HITMAP_EXAMPLE_PLUGIN;

// HITMs on `field` of the run's report, over every line.
std::uint64_t field_hitm(const nlohmann::json& report, const std::string& field) {
    std::uint64_t n = 0;
    for (const auto& line : report["lines"])
        for (const auto& f : line["fields"])
            if (f["field"] == field)
                n += f["counts"]["hitm"].get<std::uint64_t>();
    return n;
}

TEST(Plugin, ListShowsTheExampleWorkloadAndItsLayouts) {
    TempDir dir;
    const CliResult r = run_cli({"--plugin", kExample, "list"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("example-hot-counter  (seed plugin)"));
    EXPECT_THAT(r.out, HasSubstr("request_stats    packed"));
    EXPECT_THAT(r.out, HasSubstr("request_stats    padded"));
    // Without the plugin the workload does not exist.
    const CliResult plain = run_cli({"list"}, dir.path());
    EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("example-hot-counter")));
}

TEST(Plugin, RunsOnRealThreadsAndReportsItsFields) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    const CliResult r =
        run_cli({"run", "example-hot-counter", "--plugin", kExample, "--variant", "packed",
                 "--threads", "2", "--iterations", "2000", "--c2c", "software", "--db", db},
                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    // A stored run is read without the plugin: its objects and fields are in the database.
    const CliResult report = run_cli({"report", "1", "--db", db}, dir.path());
    ASSERT_EQ(report.status, 0) << report.err;
    EXPECT_THAT(report.out, HasSubstr("example-hot-counter packed x2 threads"));
    EXPECT_THAT(report.out, HasSubstr("request_stats [0]"));
    EXPECT_THAT(report.out, HasSubstr("hits,limit,flags"));
}

// Simulated, so the counts are the model's and not the VM's: in "packed" the configuration
// reads take the line from the counter's writers; in "padded", and in "packed" predicted under
// the padded layout, they never do.
TEST(Plugin, SimulatedPackedLayoutFalselySharesAndPaddedDoesNot) {
    TempDir dir;
    const auto db = (dir / "s.db").string();
    const CliResult r = run_cli({"--plugin", kExample, "run", "example-hot-counter", "--variant",
                                 "packed,padded", "--simulate", "xeon-2s-72", "--threads", "4",
                                 "--iterations", "300", "--calibration-ops", "20000", "--db", db},
                                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    auto report = [&](const std::string& run) {
        const CliResult rr = run_cli({"report", run, "--json", "--db", db}, dir.path());
        EXPECT_EQ(rr.status, 0) << rr.err;
        return nlohmann::json::parse(rr.out);
    };
    const nlohmann::json packed = report("1"), padded = report("2");
    EXPECT_GT(field_hitm(packed, "limit"), 100u);
    EXPECT_EQ(field_hitm(padded, "limit"), 0u);
    EXPECT_EQ(field_hitm(padded, "flags"), 0u);
    EXPECT_GT(field_hitm(padded, "hits"), 100u); // the counter itself is still shared

    // The packed run simulated again under the padded layout: `limit` stops moving.
    const CliResult predicted = run_cli({"--plugin", kExample, "predict", "1", "--simulate",
                                         "--layout", "request_stats=padded", "--json", "--db", db},
                                        dir.path());
    ASSERT_EQ(predicted.status, 0) << predicted.err;
    const nlohmann::json p = nlohmann::json::parse(predicted.out);
    bool found = false;
    for (const auto& row : p["fields"])
        if (row["field"] == "limit") {
            found = true;
            EXPECT_GT(row["recorded"]["transfers_per_1k_ops"].get<double>(), 100.0);
            EXPECT_LT(row["predicted"]["transfers_per_1k_ops"].get<double>(), 10.0);
        }
    EXPECT_TRUE(found) << predicted.out;
    // No memcg counter in this workload: the charged-usage summary is unknown, not zero.
    EXPECT_TRUE(p["usage_lines"]["recorded"]["transfers_per_1k_ops"].is_null());
}

TEST(Plugin, AWrongAbiVersionIsRefusedAndNothingIsStored) {
    TempDir dir;
    const auto db = dir / "w.db";
    const CliResult r =
        run_cli({"--plugin", HITMAP_WRONG_ABI_PLUGIN, "run", "page-counter-charge", "--threads",
                 "1", "--iterations", "10", "--c2c", "off", "--db", db.string()},
                dir.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_THAT(r.err, HasSubstr("built for plugin ABI 9999, this hitmap has ABI 2"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(Plugin, ALibraryWithoutEntryPointsOrNoFileIsRefused) {
    TempDir dir;
    const CliResult not_plugin = run_cli({"--plugin", HITMAP_NOT_A_PLUGIN, "list"}, dir.path());
    EXPECT_EQ(not_plugin.status, 1);
    EXPECT_THAT(not_plugin.err, HasSubstr("not a hitmap plugin"));
    const CliResult missing = run_cli({"--plugin", (dir / "nope.so").string(), "list"}, dir.path());
    EXPECT_EQ(missing.status, 1);
    EXPECT_THAT(missing.err, HasSubstr("no such file"));
    // A text file is not a shared library.
    const auto text = dir / "text.so";
    std::ofstream(text) << "not ELF\n";
    const CliResult garbage = run_cli({"--plugin", text.string(), "list"}, dir.path());
    EXPECT_EQ(garbage.status, 1);
    EXPECT_THAT(garbage.err, HasSubstr("cannot load"));
}

TEST(Plugin, LoadingTheSamePluginTwiceIsRefused) {
    TempDir dir;
    const CliResult r = run_cli({"--plugin", kExample, "--plugin", kExample, "list"}, dir.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_THAT(r.err, HasSubstr("exists already"));
}

} // namespace
} // namespace hitmap::testing
