// `run --simulate` end to end (issue 11): what a simulated run stores and says about itself,
// and that with a calibration file it is a function of its inputs, also while the host is busy.
#include "collector/store/database.hpp"
#include "collector/store/simulation_table.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
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
    const auto record = store::read_simulation(store, 1);
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
    EXPECT_THAT(v.err, HasSubstr("no calibration of page-counter-charge v6.1 at"));

    const CliResult w = run_cli({"run", "res-counter-charge", "--simulate", "xeon-2s-72",
                                 "--threads", "2", "--iterations", "10", "--calibration",
                                 calibration, "--db", (dir / "b.db").string()},
                                dir.path());
    EXPECT_NE(w.status, 0);
    EXPECT_THAT(w.err,
                HasSubstr("a calibration of page-counter-charge, not of res-counter-charge"));
    EXPECT_EQ(count_lines(w.err), 1) << w.err;
}

// Issue 33: a calibration is keyed by every parameter. One measured at the defaults is refused
// for a run at other parameters, in one line naming them, before a database exists; with
// --calibrate-missing the run's own is measured and added to the file beside the first.
TEST(CliSimulate, ACalibrationOfOtherParametersIsRefusedNamingThem) {
    TempDir dir;
    const auto calibration = (dir / "c.json").string();
    auto make = simulate_args((dir / "a.db").string(), "v6.0");
    make.insert(make.end(), {"--save-calibration", calibration, "--calibration-ops", "20000"});
    ASSERT_EQ(run_cli(make, dir.path()).status, 0);

    auto other = simulate_args((dir / "b.db").string(), "v6.0");
    other.insert(other.end(),
                 {"--param", "work_ns=3400", "--param", "batch=64", "--calibration", calibration});
    const CliResult refused = run_cli(other, dir.path());
    EXPECT_EQ(refused.status, 1);
    EXPECT_THAT(refused.err, HasSubstr("no calibration of page-counter-charge v6.0 at"));
    EXPECT_THAT(refused.err, HasSubstr("batch=0 (the run: 64), work_ns=0 (the run: 3400)"));
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "b.db"));

    other.insert(other.end(), {"--calibrate-missing", "--calibration-ops", "20000"});
    ASSERT_EQ(run_cli(other, dir.path()).status, 0);
    const auto file = nlohmann::json::parse(std::ifstream(calibration));
    ASSERT_EQ(file.size(), 2u);
    EXPECT_EQ(file[0]["params"]["work_ns"], 0);
    EXPECT_EQ(file[1]["params"]["work_ns"], 3400);
    EXPECT_EQ(file[1]["params"]["batch"], 64);
    EXPECT_FALSE(file[1]["host"].get<std::string>().empty());
}

// predict --simulate: the run simulated again under its own layout is the run, bit for bit; under
// the padded counter it is what `run --simulate --layout` of that layout gives.
TEST(CliSimulate, PredictSimulateRerunsTheRunUnderAnotherLayout) {
    TempDir dir;
    const auto db = (dir / "s.db").string();
    const auto calibration = (dir / "c.json").string();
    auto base = simulate_args(db, "v6.0");
    base.insert(base.end(), {"--save-calibration", calibration, "--calibration-ops", "20000"});
    ASSERT_EQ(run_cli(base, dir.path()).status, 0);

    const auto same = json_of(
        {"predict", "1", "--simulate", "--layout", "page_counter=v6.0", "--json", "--db", db}, dir);
    EXPECT_EQ(same["ops_per_s"]["baseline"], same["ops_per_s"]["predicted"]);
    ASSERT_FALSE(same["fields"].empty());
    for (const auto& row : same["fields"])
        EXPECT_EQ(row["recorded"], row["predicted"]) << row["object"] << " " << row["field"];

    const CliResult stored = run_cli(
        {"predict", "1", "--simulate", "--layout", "page_counter=v6.1", "--store", "--db", db},
        dir.path());
    ASSERT_EQ(stored.status, 0) << stored.err;
    EXPECT_THAT(stored.out, HasSubstr("ops/s (simulated, virtual time): baseline"));
    EXPECT_THAT(stored.out, HasSubstr("stored as run 2"));
    auto direct = simulate_args(db, "v6.0");
    direct.insert(direct.end(), {"--layout", "page_counter=v6.1", "--calibration", calibration});
    ASSERT_EQ(run_cli(direct, dir.path()).status, 0);

    const auto runs = json_of({"show", "--json", "--db", db}, dir);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[1]["source"], "simulated");
    EXPECT_EQ(runs[1]["variant"], "v6.0 @page_counter=v6.1");
    EXPECT_EQ(runs[1]["ops_per_s"], runs[2]["ops_per_s"]);
    const auto predicted = json_of({"report", "2", "--json", "--db", db}, dir);
    const auto measured = json_of({"report", "3", "--json", "--db", db}, dir);
    EXPECT_EQ(predicted["lines"], measured["lines"]);
    EXPECT_EQ(predicted["totals"], measured["totals"]);
}

TEST(CliSimulate, PredictSimulateRefusesARunThatWasNotSimulatedAndAMissingLayout) {
    TempDir dir;
    const auto db = (dir / "m.db").string();
    ASSERT_EQ(run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--threads", "1",
                       "--iterations", "1000", "--c2c", "off", "--db", db},
                      dir.path())
                  .status,
              0);
    const CliResult measured = run_cli(
        {"predict", "1", "--simulate", "--layout", "page_counter=v6.1", "--db", db}, dir.path());
    EXPECT_NE(measured.status, 0);
    EXPECT_THAT(measured.err, HasSubstr("run 1 was not simulated"));
    EXPECT_EQ(count_lines(measured.err), 1) << measured.err;

    const CliResult no_layout = run_cli({"predict", "1", "--simulate", "--db", db}, dir.path());
    EXPECT_NE(no_layout.status, 0);
    EXPECT_THAT(no_layout.err, HasSubstr("needs --layout"));
    const CliResult sweep = run_cli({"predict", "1", "--simulate", "--phase-sweep", "--layout",
                                     "page_counter=v6.1", "--db", db},
                                    dir.path());
    EXPECT_NE(sweep.status, 0);
    EXPECT_THAT(sweep.err, HasSubstr("replay a trace"));
}

} // namespace
} // namespace hitmap::testing
