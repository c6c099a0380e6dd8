// `run --simulate` end to end (issue 11): what a simulated run stores and says about itself,
// and that with a calibration file it is a function of its inputs, also while the host is busy.
#include "collector/store/database.hpp"
#include "collector/store/simulation_table.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <atomic>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> simulate_args(const std::string& db, const std::string& variants) {
    return {"run",          "page-counter-charge",
            "--variant",    variants,
            "--simulate",   "xeon-2s-72",
            "--threads",    "8",
            "--iterations", "300",
            "--db",         db};
}

nlohmann::json json_of(const std::vector<std::string>& args, const TempDir& dir) {
    const CliResult r = run_cli(args, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

// Everything but the wall-clock start, which differs by design.
nlohmann::json without_start(nlohmann::json j) {
    if (j.is_object()) {
        j.erase("started_at");
        for (auto& [key, value] : j.items())
            value = without_start(value);
    } else if (j.is_array()) {
        for (auto& value : j)
            value = without_start(value);
    }
    return j;
}

TEST(CliSimulate, ARunSaysItWasSimulatedAndStoresItsMachineAndCalibration) {
    TempDir dir;
    const auto db = (dir / "s.db").string();
    const CliResult r = run_cli(simulate_args(db, "v6.0"), dir.path());
    ASSERT_EQ(r.status, 0) << r.err;

    const auto runs = json_of({"show", "--json", "--db", db}, dir);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["source"], "simulated");
    EXPECT_EQ(runs[0]["c2c_source"], "simulated");
    EXPECT_EQ(runs[0]["threads"], 8);
    EXPECT_EQ(runs[0]["ops"], 8 * 300);
    EXPECT_GT(runs[0]["ops_per_s"].get<double>(), 0);

    const CliResult report = run_cli({"report", "1", "--db", db}, dir.path());
    ASSERT_EQ(report.status, 0) << report.err;
    EXPECT_THAT(report.out, HasSubstr("throughput: simulated (virtual time"));
    EXPECT_THAT(report.out, HasSubstr("simulated machine xeon-2s-72"));
    EXPECT_THAT(report.out, HasSubstr("memory.usage"));

    auto store = store::Database::open(db);
    const auto record = store::read_simulation(store.sql(), 1);
    ASSERT_TRUE(record);
    EXPECT_EQ(record->machine, "xeon-2s-72");
    const auto machine = nlohmann::json::parse(record->machine_json);
    EXPECT_EQ(machine["sockets"], 2);
    const auto calibration = nlohmann::json::parse(record->calibration_json);
    EXPECT_EQ(calibration["workload"], "page-counter-charge");
    EXPECT_EQ(calibration["variant"], "v6.0");
    bool saw_accesses = false;
    for (const auto& m : store.metrics(1)) {
        EXPECT_EQ(m.source, store::Source::simulated) << m.name;
        saw_accesses |= m.name == "sim.accesses" && m.value && *m.value > 0;
    }
    EXPECT_TRUE(saw_accesses);
}

// Acceptance 1: the same inputs and calibration give the same tables and ops/s, bit for bit,
// while two busy loops compete for this machine's two CPUs.
TEST(CliSimulate, WithACalibrationFileTwoRunsAreIdenticalWhileTheHostIsBusy) {
    TempDir dir;
    const auto calibration = (dir / "c.json").string();
    auto first = simulate_args((dir / "a.db").string(), "v6.0,v6.1");
    first.insert(first.end(), {"--save-calibration", calibration, "--calibration-ops", "20000"});
    ASSERT_EQ(run_cli(first, dir.path()).status, 0);

    std::atomic<bool> stop{false};
    std::vector<std::jthread> busy;
    for (int i = 0; i < 2; ++i)
        busy.emplace_back([&] {
            volatile std::uint64_t x = 0;
            while (!stop.load(std::memory_order_relaxed))
                x = x + 1;
        });
    auto second = simulate_args((dir / "b.db").string(), "v6.0,v6.1");
    second.insert(second.end(), {"--calibration", calibration});
    const CliResult again = run_cli(second, dir.path());
    stop = true;
    busy.clear();
    ASSERT_EQ(again.status, 0) << again.err;

    for (const std::string run : {"1", "2"}) {
        const auto a = json_of({"report", run, "--json", "--db", (dir / "a.db").string()}, dir);
        const auto b = json_of({"report", run, "--json", "--db", (dir / "b.db").string()}, dir);
        EXPECT_EQ(without_start(a), without_start(b)) << "run " << run;
    }
    const auto a = json_of({"show", "--json", "--db", (dir / "a.db").string()}, dir);
    const auto b = json_of({"show", "--json", "--db", (dir / "b.db").string()}, dir);
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i)
        EXPECT_EQ(a[i]["ops_per_s"].get<double>(), b[i]["ops_per_s"].get<double>());
}

TEST(CliSimulate, ACalibrationOfAnotherWorkloadOrVariantIsRefused) {
    TempDir dir;
    const auto calibration = (dir / "c.json").string();
    auto make = simulate_args((dir / "a.db").string(), "v6.0");
    make.insert(make.end(), {"--save-calibration", calibration, "--calibration-ops", "20000"});
    ASSERT_EQ(run_cli(make, dir.path()).status, 0);

    auto other_variant = simulate_args((dir / "b.db").string(), "v6.1");
    other_variant.insert(other_variant.end(), {"--calibration", calibration});
    const CliResult v = run_cli(other_variant, dir.path());
    EXPECT_NE(v.status, 0);
    EXPECT_THAT(v.err, HasSubstr("no calibration of variant v6.1"));

    const CliResult w = run_cli({"run", "res-counter-charge", "--simulate", "xeon-2s-72",
                                 "--threads", "2", "--iterations", "10", "--calibration",
                                 calibration, "--db", (dir / "b.db").string()},
                                dir.path());
    EXPECT_NE(w.status, 0);
    EXPECT_THAT(w.err,
                HasSubstr("a calibration of page-counter-charge, not of res-counter-charge"));
    EXPECT_EQ(count_lines(w.err), 1) << w.err;
}

} // namespace
} // namespace hitmap::testing
