// `predict RUN --optimize STRUCT` end to end: the binary on a fresh traced run, what it prints,
// the files it writes, the prediction it stores, and how a later run of the proposal is found
// as the measured counterpart (by `predict` and by the compare view). Counts of a live run
// depend on this VM's scheduling: the figures are asserted on the committed trace
// (optimize_stored_run_test.cpp), the links here.
#include "collector/analysis/run_detail.hpp"
#include "collector/store/database.hpp"
#include "engine/layout/layout_loader.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <gtest/gtest.h>

namespace hitmap::testing {
namespace {

class PredictOptimize : public ::testing::Test {
protected:
    void SetUp() override {
        db_ = (dir_ / "opt.db").string();
        const CliResult r = run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--threads",
                                     "2", "--iterations", "3000", "--c2c", "software", "--db", db_,
                                     "--progress", "none"},
                                    dir_.path());
        ASSERT_EQ(r.status, 0) << r.err;
    }

    CliResult predict(std::vector<std::string> args) const {
        args.insert(args.begin(), {"predict", "1", "--optimize", "page_counter", "--db", db_});
        return run_cli(args, dir_.path());
    }

    TempDir dir_;
    std::string db_;
};

TEST_F(PredictOptimize, PrintsTheProposalsBesideTheCurrentAndBuiltInLayouts) {
    const CliResult r = predict({"--max-size", "192"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("struct page_counter: 16 copies, 14 fields"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("current"), std::string::npos);
    EXPECT_NE(r.out.find("#1"), std::string::npos);
    EXPECT_NE(r.out.find("v6.1"), std::string::npos);
    EXPECT_NE(r.out.find("limit fields"), std::string::npos);
    EXPECT_NE(r.out.find("size / lines"), std::string::npos);
    EXPECT_NE(r.out.find("\"version\": \"opt-"), std::string::npos);
    EXPECT_NE(r.out.find("CACHELINE_PADDING(_pad1_);"), std::string::npos);
    EXPECT_NE(r.out.find("} ____cacheline_aligned_in_smp;"), std::string::npos);
}

TEST_F(PredictOptimize, EmitsStoresAndLinksTheMeasuredRunOfTheProposal) {
    const auto json_file = (dir_ / "proposal.json").string();
    const auto c_file = (dir_ / "proposal.h").string();
    const CliResult r = predict({"--max-size", "192", "--emit-json", json_file, "--emit-c", c_file,
                                 "--c-style", "groups", "--store", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const engine::Layout proposal = engine::load_layout_file(json_file);
    EXPECT_EQ(j["winner"]["version"], proposal.version);
    EXPECT_LE(proposal.size, 192u);
    EXPECT_EQ(j["layouts"][0]["role"], "current");
    EXPECT_EQ(j["layouts"][1]["role"], "#1");
    EXPECT_EQ(j["layouts"][1]["version"], proposal.version);
    EXPECT_TRUE(j["measured_run"].is_null());
    const std::string c = read_file(c_file);
    EXPECT_NE(c.find("__cacheline_group_begin(line0);"), std::string::npos) << c;
    EXPECT_EQ(j["c"], c);
    ASSERT_TRUE(j["stored_run"].is_number());
    const std::int64_t stored = j["stored_run"];
    const nlohmann::json runs = show_json(db_, dir_);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1]["id"], stored);
    EXPECT_EQ(runs[1]["predicted_from"], 1);
    EXPECT_EQ(runs[1]["variant"], "v6.0 @page_counter=" + proposal.version);

    // A measured run of the proposal: found by its layout version.
    const CliResult measured =
        run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--threads", "2",
                 "--iterations", "3000", "--c2c", "software", "--layout",
                 "page_counter=" + json_file, "--db", db_, "--progress", "none"},
                dir_.path());
    ASSERT_EQ(measured.status, 0) << measured.err;
    const std::int64_t measured_id = stored + 1;
    const nlohmann::json again =
        nlohmann::json::parse(predict({"--max-size", "192", "--json"}).out);
    EXPECT_EQ(again["winner"]["version"], proposal.version) << "deterministic on the same trace";
    EXPECT_EQ(again["measured_run"], measured_id);
    EXPECT_EQ(again["layouts"].back()["role"], "measured #1");
    const CliResult replay =
        run_cli({"predict", "1", "--layout", "page_counter=" + json_file, "--json", "--db", db_},
                dir_.path());
    EXPECT_EQ(nlohmann::json::parse(replay.out)["measured_run"], measured_id);
    // The compare view of the source run against the proposal's run shows the stored prediction.
    store::Database db = store::Database::open(db_);
    const analysis::CompareData compare = analysis::read_compare(db, 1, measured_id);
    ASSERT_TRUE(compare.prediction_run);
    EXPECT_EQ(compare.prediction_run->id, stored);
    ASSERT_TRUE(compare.prediction);
    EXPECT_TRUE(compare.prediction->usage_line_measured.has_value());
}

TEST_F(PredictOptimize, KeepsTheOrderAsked) {
    const auto json_file = (dir_ / "kept.json").string();
    const CliResult r = predict({"--max-size", "192", "--keep-order-of", "usage,min,low,high,max",
                                 "--emit-json", json_file});
    ASSERT_EQ(r.status, 0) << r.err;
    const engine::Layout l = engine::load_layout_file(json_file);
    const auto at = [&](const char* f) { return l.at(*l.type->field_id(f)).offset; };
    EXPECT_LT(at("usage"), at("min"));
    EXPECT_LT(at("min"), at("low"));
    EXPECT_LT(at("low"), at("high"));
    EXPECT_LT(at("high"), at("max"));
}

TEST_F(PredictOptimize, RefusesWithOneLine) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--max-size", "32"},
                                                 {"--keep-order-of", "usage,nonsense"},
                                                 {"--layout", "page_counter=v6.1"},
                                                 {"--c-style", "fancy"},
                                                 {"--candidates", "0"},
                                                 {"--phase-sweep"}}) {
        const CliResult r = predict(args);
        EXPECT_EQ(r.status, 1) << args[0];
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    const CliResult memcg =
        run_cli({"predict", "1", "--optimize", "mem_cgroup", "--db", db_}, dir_.path());
    EXPECT_EQ(memcg.status, 1);
    EXPECT_NE(memcg.err.find("--optimize page_counter"), std::string::npos) << memcg.err;
    const CliResult unknown =
        run_cli({"predict", "1", "--optimize", "nonsense", "--db", db_}, dir_.path());
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.err.find("unknown struct"), std::string::npos) << unknown.err;
    const CliResult absent =
        run_cli({"predict", "1", "--optimize", "res_counter", "--db", db_}, dir_.path());
    EXPECT_EQ(absent.status, 1);
    EXPECT_NE(absent.err.find("no struct res_counter"), std::string::npos) << absent.err;
    const CliResult stray = run_cli(
        {"predict", "1", "--emit-json", "x.json", "--layout", "page_counter=v6.1", "--db", db_},
        dir_.path());
    EXPECT_EQ(stray.status, 1);
    EXPECT_NE(stray.err.find("go with --optimize"), std::string::npos) << stray.err;
}

TEST(PredictOptimizeSimulated, EvaluatesEachLayoutBySimulatingTheRunAgain) {
    const TempDir dir;
    const std::string db = (dir / "sim.db").string();
    const CliResult run =
        run_cli({"run", "page-counter-charge", "--variant", "v6.0", "--simulate", "xeon-2s-72",
                 "--threads", "4", "--iterations", "200", "--calibration",
                 std::string(HITMAP_TEST_DATA) + "/calibration/page-counter-charge.json", "--db",
                 db, "--progress", "none"},
                dir.path());
    ASSERT_EQ(run.status, 0) << run.err;
    const std::vector<std::string> optimize{"predict",    "1",    "--optimize", "page_counter",
                                            "--max-size", "192",  "--simulate", "--candidates",
                                            "2",          "--db", db,           "--json"};
    CliResult r = run_cli(optimize, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json first = nlohmann::json::parse(r.out);
    EXPECT_EQ(first["evaluated_by"], "simulations of the run on xeon-2s-72");
    // A simulation is a function of its inputs: the same proposals, the same figures.
    std::vector<std::string> store = optimize;
    store.push_back("--store");
    r = run_cli(store, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json second = nlohmann::json::parse(r.out);
    EXPECT_EQ(second["layouts"], first["layouts"]);
    ASSERT_TRUE(second["stored_run"].is_number());
    const nlohmann::json runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1]["source"], "simulated");
    EXPECT_EQ(runs[1]["predicted_from"], 1);
    // Replay-only options are refused.
    std::vector<std::string> with_cpus = optimize;
    with_cpus.insert(with_cpus.end(), {"--model-cpus", "thread"});
    EXPECT_EQ(run_cli(with_cpus, dir.path()).status, 1);
}

} // namespace
} // namespace hitmap::testing
