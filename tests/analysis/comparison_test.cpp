// What the GUI's compare view and the reports read through the analysis library, asserted on
// tests/data/small.db (run 1: page-counter-charge v6.0, run 2: v6.1, 2 threads each, traced)
// and on synthetic run lists.
#include "collector/analysis/comparison.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/store/errors.hpp"
#include "small_db.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

using test::SmallDb;

TEST(Comparison, PaddingTheCounterTakesTheLimitsOffTheHotLine) {
    SmallDb small;
    auto& db = small.db;
    const CompareData data = read_compare(db, 1, 2);
    ASSERT_TRUE(data.before.c2c && data.after.c2c);
    const engine::ObjectInfo* object = hottest_object(*data.before.c2c);
    ASSERT_NE(object, nullptr);
    const auto pairs = field_pairs(*data.before.c2c, *data.after.c2c, object->name, 12);
    ASSERT_FALSE(pairs.empty());
    EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
        return std::max(x.before, x.after) > std::max(y.before, y.after);
    }));
    const auto field = [&](const std::string& name) {
        return std::find_if(pairs.begin(), pairs.end(),
                            [&](const FieldPair& p) { return p.field == name; });
    };
    // v6.0 puts memory.high on memory.usage's line; v6.1 gives the counter its own line.
    ASSERT_NE(field("memory.usage"), pairs.end());
    ASSERT_NE(field("memory.high"), pairs.end());
    EXPECT_GT(field("memory.high")->before, 0.0);
    EXPECT_EQ(field("memory.high")->after, 0.0);
    EXPECT_GT(field("memory.usage")->after, 0.0); // the counter itself stays shared
}

TEST(Comparison, ARunWithoutAStoredPredictionHasNone) {
    SmallDb small;
    auto& db = small.db;
    const CompareData data = read_compare(db, 3, 4);
    EXPECT_EQ(data.prediction_run, std::nullopt);
    EXPECT_EQ(data.prediction, std::nullopt);
    EXPECT_FALSE(data.before.locks.empty()); // res-counter-charge stores its lock statistics
}

TEST(Comparison, AnUnknownRunIsNoSuchRun) {
    SmallDb small;
    auto& db = small.db;
    EXPECT_THROW(read_run_detail(db, 99), store::NoSuchRun);
    try {
        read_run_detail(db, 99);
    } catch (const store::NoSuchRun& e) {
        EXPECT_NE(std::string(e.what()).find("run 99 is not in the database"), std::string::npos);
    }
}

TEST(Comparison, RelativeChangeNeedsBothFiguresAndAPositiveBase) {
    EXPECT_DOUBLE_EQ(*relative_change(100.0, 90.0), -0.1);
    EXPECT_EQ(relative_change(0.0, 5.0), std::nullopt);
    EXPECT_EQ(relative_change(std::nullopt, 5.0), std::nullopt);
    EXPECT_EQ(relative_change(5.0, std::nullopt), std::nullopt);
}

store::RunRecord run(std::int64_t id, const char* workload, const char* variant,
                     const char* params = "{}") {
    return {.id = id,
            .workload = workload,
            .variant = variant,
            .params_json = params,
            .threads = 2,
            .status = store::RunStatus::complete};
}

TEST(Comparison, TheDefaultPartnerHasAnotherLayoutFirst) {
    std::vector<store::RunRecord> runs{
        run(1, "page-counter-charge", "v6.0", R"({"layout.page_counter":"v6.0"})"),
        run(2, "page-counter-charge", "v6.0-copy", R"({"layout.page_counter":"v6.0"})"),
        run(3, "page-counter-charge", "v6.1", R"({"layout.page_counter":"v6.1"})"),
        run(4, "res-counter-charge", "precharge"),
    };
    runs.push_back(run(5, "page-counter-charge", "predicted", R"({"layout.page_counter":"x"})"));
    runs.back().c2c_source = store::C2cSource::predicted;
    EXPECT_EQ(default_partner(runs, 1), 3);
    EXPECT_EQ(default_partner(runs, 4), std::nullopt);
    EXPECT_EQ(default_partner(runs, 42), std::nullopt);
    runs.erase(runs.begin() + 2); // no other layout left: another variant will do
    EXPECT_EQ(default_partner(runs, 1), 2);
}

} // namespace
} // namespace hitmap::analysis
