// Software c2c end to end: run with tracing, report, predict under the padded layout.
#include "collector/store/database.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hitmap::testing {
namespace {

// One collection per test process: v6.0+p1 and v6.0+p1-2 differ only in layout. Tracing 1 ms
// in every 10 spreads the traced operations over the whole second, so the rates describe the
// steady state rather than the first milliseconds after the threads start.
class CliC2c : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir;
        db_ = (*dir_ / "c.db").string();
        const CliResult r = run_cli({"run", "page-counter-charge", "--variant", "v6.0+p1,v6.0+p1-2",
                                     "--threads", "2", "--duration", "1s", "--c2c", "software",
                                     "--trace-mb", "32", "--trace-window", "1ms/10ms", "--db", db_},
                                    dir_->path());
        ASSERT_EQ(r.status, 0) << r.err;
    }
    static void TearDownTestSuite() { delete dir_; }

    static nlohmann::json report(int run) {
        const CliResult r =
            run_cli({"report", std::to_string(run), "--json", "--db", db_}, dir_->path());
        EXPECT_EQ(r.status, 0) << r.err;
        return nlohmann::json::parse(r.out);
    }

    // Transfers per 1,000 operations of one field of the leaf page_counter.
    static double leaf_field_rate(const nlohmann::json& rep, const std::string& field) {
        double rate = 0;
        for (const auto& line : rep["lines"])
            if (line["object"] == "top/mid/leaf/memory")
                for (const auto& f : line["fields"])
                    if (f["field"] == field)
                        rate += f["counts"]["transfers_per_1k_ops"].get<double>();
        return rate;
    }

    static TempDir* dir_;
    static std::string db_;
};
TempDir* CliC2c::dir_ = nullptr;
std::string CliC2c::db_;

// Live runs are smoke tests: what they count depends on how the VM ran the two threads. The
// counts (limit fields false-sharing with usage, their drop under padding, the prediction) are
// asserted on stored runs in cli_golden_test.cpp.
TEST_F(CliC2c, LiveRunReportsItsLinesAndClock) {
    const auto rep = report(1);
    EXPECT_TRUE(rep["lines"].is_array());
    EXPECT_GT(rep["traced_ops"].get<std::int64_t>(), 0);
    EXPECT_EQ(rep["clock"], "operation") << "the default trace clock";
}

TEST_F(CliC2c, AccessClockIsStoredAndReported) {
    TempDir dir;
    const std::string db = (dir / "a.db").string();
    ASSERT_EQ(run_cli({"run", "page-counter-charge", "--variant", "v6.0+p1", "--threads", "2",
                       "--iterations", "20000", "--trace-clock", "access", "--db", db},
                      dir.path())
                  .status,
              0);
    const CliResult r = run_cli({"report", "1", "--db", db}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Timestamps per                    :     access"), std::string::npos)
        << r.out.substr(0, 2000);
}

// How many transfers a run sees depends on how often its two threads really ran at once, which
// a shared VM does not promise; the limits' drop does not (they are never written once padded).
// The measured ratios between runs are recorded in docs/BENCHMARKS.md (scripts/acceptance-c2c).
TEST_F(CliC2c, TextReportHasThePerfC2cSectionsAndRates) {
    const CliResult r = run_cli({"report", "1", "--db", db_}, dir_->path());
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* s :
         {"Trace Event Information", "Shared Data Cache Line Table",
          "Shared Cache Line Distribution Pareto", "Hitm/1k op", "usage", "false  sharing"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST_F(CliC2c, PredictUnderPaddedLayoutFindsTheMeasuredRun) {
    const CliResult r = run_cli(
        {"predict", "1", "--layout", "page_counter=v6.1", "--json", "--db", db_}, dir_->path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["measured_run"], 2);
    EXPECT_TRUE(j["usage_lines"].contains("measured"));
    EXPECT_FALSE(j["fields"].empty());
}

TEST_F(CliC2c, PredictCanStoreItsResultAsALinkedRun) {
    const CliResult r = run_cli(
        {"predict", "1", "--layout", "page_counter=v6.1", "--line", "128", "--store", "--db", db_},
        dir_->path());
    ASSERT_EQ(r.status, 0) << r.err;
    auto db = store::Database::open(db_, {.create_if_missing = false, .read_only = true});
    const auto runs = db.runs();
    ASSERT_EQ(runs.back().c2c_source, store::C2cSource::predicted);
    const auto rep = report(static_cast<int>(runs.back().id));
    EXPECT_EQ(rep["line_size"], 128);
    // The prediction shares nothing but its run row: deleting it is safe for the source.
    EXPECT_TRUE(db.run(1).has_value());
}

TEST_F(CliC2c, ReportAndPredictRefuseMissingRunsAndRunsWithoutTraces) {
    const auto off_db = (*dir_ / "off.db").string();
    ASSERT_EQ(seed_run(off_db, dir_->path(), "100").status, 0);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"report", "999", "--db", db_},
             {"predict", "999", "--layout", "page_counter=v6.1", "--db", db_},
             {"report", "1", "--db", off_db},
             {"predict", "1", "--layout", "page_counter=v6.1", "--db", off_db},
             {"predict", "1", "--layout", "page_counter=v9", "--db", db_}}) {
        const CliResult r = run_cli(args, dir_->path());
        EXPECT_NE(r.status, 0) << args[0] << " " << args[1];
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
}

TEST_F(CliC2c, PredictWithAMissingTraceFileIsAClearError) {
    TempDir other;
    const auto db = (other / "t.db").string();
    ASSERT_EQ(seed_run(db, other.path(), "2000", {"--trace-mb", "8"}).status, 0);
    std::filesystem::remove_all(other / "t.db.traces");
    const CliResult r =
        run_cli({"predict", "1", "--layout", "page_counter=v6.1", "--db", db}, other.path());
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
}

} // namespace
} // namespace hitmap::testing
