// Machines, runs and metrics: round trips, crash visibility and the one-transaction finish.
#include "collector/store/database.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/store/store_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdexcept>

namespace hitmap::store {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::sample_run;

const MachineInfo test_machine{.host = "bench-1",
                               .cpu_model = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
                               .cpu_count = 64,
                               .kernel = "6.1.0-18-amd64",
                               .cacheline_size = 64};

class RunsTest : public ::testing::Test {
protected:
    testing::TempDir dir;
    Database db = Database::open(dir / "hitmap.db");
    std::int64_t machine_id = db.upsert_machine(test_machine, R"({"hitm": true})");

    int count(const char* table) {
        return sql_connection(db).execAndGet(std::string("SELECT count(*) FROM ") + table).getInt();
    }
};

TEST_F(RunsTest, IdenticalMachineIsReusedAndRoundTrips) {
    EXPECT_EQ(db.upsert_machine(test_machine, "{ \"hitm\" : true }"), machine_id);
    EXPECT_NE(db.upsert_machine(test_machine, R"({"hitm": false})"), machine_id);

    MachineInfo arm = test_machine;
    arm.cpu_model.reset();
    const auto arm_id = db.upsert_machine(arm, "{}");
    EXPECT_EQ(db.upsert_machine(arm, "{}"), arm_id);
    EXPECT_EQ(count("machine"), 3);

    const auto stored = db.machine(machine_id);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->info, test_machine);
    EXPECT_EQ(stored->pmu_json, R"({"hitm":true})");
    EXPECT_THAT(stored->first_seen, ::testing::MatchesRegex(R"(....-..-..T..:..:..\....Z)"));
    EXPECT_EQ(db.machine(arm_id)->info, arm);
    EXPECT_FALSE(db.machine(9999));
}

TEST_F(RunsTest, BegunRunIsRunningAndVisibleFromAnotherConnection) {
    const auto id = db.begin_run(sample_run(machine_id));

    auto other = Database::open(dir / "hitmap.db");
    const auto run = other.run(id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::running);
    EXPECT_FALSE(run->finished_at);
    EXPECT_EQ(run->params_json, R"({"layout":"v5.11","threads":4})");

    SQLite::Database raw(dir / "hitmap.db", SQLite::OPEN_READONLY);
    EXPECT_EQ(raw.execAndGet("SELECT status FROM run").getString(), "running");
}

TEST_F(RunsTest, FinishedRunAndMetricsRoundTrip) {
    RunRecord record = sample_run(machine_id);
    record.c2c_source = C2cSource::perf_c2c;
    record.note = "first try";
    const auto id = db.begin_run(record);

    const std::vector<Metric> metrics{
        {.name = "hitm_local", .value = 1234, .unit = "count"},
        {.name = "lock_wait_p99",
         .unit = "ns",
         .available = false,
         .reason = "lock_stat not enabled in this kernel"},
    };
    db.finish_run(id, {.status = RunStatus::complete,
                       .ops = 1'000'000,
                       .ops_per_s = 2.5e6,
                       .duration_s = 0.4,
                       .metrics = metrics});

    const auto run = db.run(id);
    ASSERT_TRUE(run);
    record.id = id;
    record.status = RunStatus::complete;
    record.ops = 1'000'000;
    record.ops_per_s = 2.5e6;
    record.duration_s = 0.4;
    record.params_json = R"({"layout":"v5.11","threads":4})";
    record.started_at = run->started_at;
    record.finished_at = run->finished_at;
    EXPECT_EQ(*run, record);
    ASSERT_TRUE(run->finished_at);
    EXPECT_LE(run->started_at, *run->finished_at);

    EXPECT_EQ(db.metrics(id), metrics);
    EXPECT_TRUE(sql_connection(db)
                    .execAndGet("SELECT value FROM run_metric WHERE name = 'lock_wait_p99'")
                    .isNull());
}

TEST_F(RunsTest, FilterSelectsByWorkloadVariantStatusAndIds) {
    const auto a = db.begin_run(sample_run(machine_id, "page_counter_charge", "unpadded"));
    const auto b = db.begin_run(sample_run(machine_id, "page_counter_charge", "padded"));
    const auto c = db.begin_run(sample_run(machine_id, "objcg_stock", "unpadded"));
    db.finish_run(b, {.status = RunStatus::failed});

    const auto ids = [&](const RunFilter& f) {
        std::vector<std::int64_t> found;
        for (const auto& r : db.runs(f))
            found.push_back(r.id);
        return found;
    };
    EXPECT_THAT(ids({}), ElementsAre(a, b, c));
    EXPECT_THAT(ids({.workload = "page_counter_charge"}), ElementsAre(a, b));
    EXPECT_THAT(ids({.variant = "unpadded"}), ElementsAre(a, c));
    EXPECT_THAT(ids({.status = RunStatus::failed}), ElementsAre(b));
    EXPECT_THAT(ids({.ids = std::vector{c, a}}), ElementsAre(a, c));
    EXPECT_THAT(ids({.ids = std::vector<std::int64_t>{}}), ElementsAre());
    EXPECT_THAT(ids({.workload = "page_counter_charge", .variant = "unpadded"}), ElementsAre(a));
}

// run.c2c_source keeps the texts the column held as free text, so older databases read the same.
TEST(C2cSourceNames, AreTheTextsStoredBefore) {
    const std::pair<C2cSource, std::string_view> names[] = {
        {C2cSource::software, "software"},   {C2cSource::hardware, "hardware"},
        {C2cSource::perf, "perf"},           {C2cSource::perf_c2c, "perf-c2c"},
        {C2cSource::simulated, "simulated"}, {C2cSource::predicted, "predicted"}};
    for (const auto& [source, text] : names) {
        EXPECT_EQ(to_string(source), text);
        EXPECT_EQ(parse_c2c_source(text), source);
    }
    EXPECT_THROW(parse_c2c_source("perf-c2c.data"), std::invalid_argument);
}

TEST_F(RunsTest, ExtraWritesCommitWithTheRun) {
    sql_connection(db).exec(
        "CREATE TABLE scratch_extra (run_id INTEGER REFERENCES run (id), name TEXT)");
    const auto id = db.begin_run(sample_run(machine_id));

    db.finish_run(id, {}, [&](RunWriter& writer) {
        SQLite::Statement insert(sql_connection(db),
                                 "INSERT INTO scratch_extra VALUES (?, 'memcg->lock')");
        insert.bind(1, writer.run_id());
        insert.exec();
    });

    EXPECT_EQ(db.run(id)->status, RunStatus::complete);
    EXPECT_EQ(count("scratch_extra"), 1);
}

TEST_F(RunsTest, ThrowingExtraRollsEverythingBack) {
    sql_connection(db).exec(
        "CREATE TABLE scratch_extra (run_id INTEGER REFERENCES run (id), name TEXT)");
    const auto id = db.begin_run(sample_run(machine_id));
    const RunOutcome outcome{.ops = 10, .metrics = {{.name = "hitm", .value = 1}}};

    EXPECT_THROW(db.finish_run(id, outcome,
                               [&](RunWriter&) {
                                   sql_connection(db).exec(
                                       "INSERT INTO scratch_extra VALUES (1, 'x')");
                                   throw std::runtime_error("c2c writer failed");
                               }),
                 std::runtime_error);

    const auto run = db.run(id);
    EXPECT_EQ(run->status, RunStatus::running);
    EXPECT_FALSE(run->ops);
    EXPECT_FALSE(run->finished_at);
    EXPECT_EQ(count("run_metric"), 0);
    EXPECT_EQ(count("scratch_extra"), 0);

    db.finish_run(id, outcome);
    EXPECT_EQ(db.run(id)->status, RunStatus::complete);
}

TEST_F(RunsTest, FailingMetricRollsTheRunBack) {
    const auto id = db.begin_run(sample_run(machine_id));
    const RunOutcome duplicate{.metrics = {{.name = "hitm", .value = 1}, {.name = "hitm"}}};
    EXPECT_THROW(db.finish_run(id, duplicate), StoreError);
    EXPECT_EQ(db.run(id)->status, RunStatus::running);
    EXPECT_EQ(count("run_metric"), 0);
}

TEST_F(RunsTest, FinishingTwiceOrAnUnknownRunIsARunStateError) {
    const auto id = db.begin_run(sample_run(machine_id));
    db.finish_run(id, {.status = RunStatus::cancelled});
    try {
        db.finish_run(id, {});
        FAIL() << "finished twice";
    } catch (const RunStateError& e) {
        EXPECT_THAT(e.what(), HasSubstr("is already cancelled"));
    }
    EXPECT_THROW(db.finish_run(9999, {}), RunStateError);
    EXPECT_EQ(db.run(id)->status, RunStatus::cancelled);
}

TEST_F(RunsTest, CallerMistakesAreInvalidArguments) {
    const auto id = db.begin_run(sample_run(machine_id));
    EXPECT_THROW(db.finish_run(id, {.status = RunStatus::running}), std::invalid_argument);
    RunRecord bad = sample_run(machine_id);
    bad.params_json = "{not json";
    EXPECT_THROW(db.begin_run(bad), std::invalid_argument);
    EXPECT_THROW(db.upsert_machine(test_machine, ""), std::invalid_argument);
}

TEST_F(RunsTest, RunOfAnUnknownMachineIsRefusedByTheForeignKey) {
    EXPECT_THROW(db.begin_run(sample_run(machine_id + 100)), StoreError);
}

} // namespace
} // namespace hitmap::store
