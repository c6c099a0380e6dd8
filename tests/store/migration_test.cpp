// The embedded migration list, and migrating an older file (with an injected list).
#include "collector/store/database.hpp"
#include "tests/store/store_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <array>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::store {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

// The real first migration plus a made-up second one, standing in for a future schema.
std::array<schemas::Migration, 2> with_second(std::string_view name, std::string_view sql) {
    return {schemas::migrations()[0], schemas::Migration{2, name, sql}};
}

std::span<const schemas::Migration> first_only() {
    return schemas::migrations().first(1);
}

// A version 1 database holding one finished run; returns that run's id.
std::int64_t make_version_1(const std::filesystem::path& path) {
    auto db = Database::open(path, {}, first_only());
    const auto id = db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
    db.finish_run(id, {.metrics = {{.name = "hitm", .value = 3, .unit = "count"}}});
    return id;
}

TEST(Migrations, EmbeddedListRunsFromOneWithNamesFromTheFiles) {
    const auto all = schemas::migrations();
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all[0].name, "initial");
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].version, static_cast<int>(i + 1));
        EXPECT_FALSE(all[i].sql.empty()) << all[i].name;
    }
    EXPECT_EQ(Database::latest_schema_version(), static_cast<int>(all.size()));
    EXPECT_THAT(std::string(all[0].sql), HasSubstr("CREATE TABLE run_metric"));
}

TEST(Migrations, OlderFileIsBackedUpThenMigrated) {
    TempDir dir;
    const auto run_id = make_version_1(dir / "hitmap.db");
    const auto migrations = with_second("extra", "CREATE TABLE extra (x INTEGER);");

    auto db = Database::open(dir / "hitmap.db", {}, migrations);

    EXPECT_EQ(db.schema_version(), 2);
    EXPECT_TRUE(db.sql().tableExists("extra"));
    EXPECT_EQ(db.sql().execAndGet("SELECT group_concat(name) FROM schema_version").getString(),
              "initial,extra");
    ASSERT_TRUE(db.run(run_id));
    EXPECT_EQ(db.metrics(run_id).size(), 1u);

    const auto backup = dir / "hitmap.db.bak-v1";
    ASSERT_TRUE(std::filesystem::exists(backup));
    EXPECT_FALSE(std::filesystem::exists(backup.string() + ".partial"));
    const auto old = Database::open(backup, {.read_only = true}, first_only());
    EXPECT_EQ(old.schema_version(), 1);
    EXPECT_TRUE(old.run(run_id));
}

// Traces recorded before the clock column existed were all timed per access.
TEST(Migrations, TraceClockOfOlderTracesIsAccess) {
    TempDir dir;
    std::int64_t run_id = 0;
    {
        auto db = Database::open(dir / "hitmap.db", {}, schemas::migrations().first(2));
        run_id = db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
        SQLite::Statement insert(db.sql(),
                                 "INSERT INTO run_trace (run_id, format, threads, records, "
                                 "traced_ops, dropped_records, cpu_migrations, model_cpus, "
                                 "line_size) VALUES (?, 'hitmap-trace-v1+zstd', 2, 10, 5, 0, 0, "
                                 "'recorded', 64)");
        insert.bind(1, run_id);
        insert.exec();
    }
    auto db = Database::open(dir / "hitmap.db");
    SQLite::Statement clock(db.sql(), "SELECT clock FROM run_trace WHERE run_id = ?");
    clock.bind(1, run_id);
    ASSERT_TRUE(clock.executeStep());
    EXPECT_EQ(clock.getColumn(0).getString(), "access");
    EXPECT_THROW(db.sql().exec("UPDATE run_trace SET clock = 'sundial'"), SQLite::Exception);
}

TEST(Migrations, FailingMigrationKeepsThePreviousVersion) {
    TempDir dir;
    const auto run_id = make_version_1(dir / "hitmap.db");
    const auto broken = with_second("broken", "CREATE TABLE extra (x); CREATE TABL oops;");

    try {
        Database::open(dir / "hitmap.db", {}, broken);
        FAIL() << "a broken migration applied";
    } catch (const MigrationError& e) {
        EXPECT_THAT(e.what(), HasSubstr("migration 0002_broken failed"));
    }

    auto db = Database::open(dir / "hitmap.db", {}, first_only());
    EXPECT_EQ(db.schema_version(), 1);
    EXPECT_FALSE(db.sql().tableExists("extra"));
    EXPECT_TRUE(db.run(run_id));
}

TEST(Migrations, MigrationBreakingAForeignKeyIsRolledBack) {
    TempDir dir;
    make_version_1(dir / "hitmap.db");
    const auto orphaning = with_second("orphaning", "DELETE FROM machine;");

    EXPECT_THROW(Database::open(dir / "hitmap.db", {}, orphaning), MigrationError);
    auto db = Database::open(dir / "hitmap.db", {}, first_only());
    EXPECT_EQ(db.sql().execAndGet("SELECT count(*) FROM machine").getInt(), 1);
}

TEST(Migrations, FileNewerThanTheListIsRefused) {
    TempDir dir;
    Database::open(dir / "hitmap.db", {}, with_second("extra", "CREATE TABLE extra (x);"));
    try {
        Database::open(dir / "hitmap.db", {}, first_only());
        FAIL() << "newer file opened";
    } catch (const NewerSchema& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("file has schema version 2, this hitmap understands up to 1"));
    }
}

TEST(Migrations, ReadOnlyOpenOfAnOlderFileIsRefusedUntouched) {
    TempDir dir;
    make_version_1(dir / "hitmap.db");
    const auto before = testing::backdated_snapshot(dir / "hitmap.db");
    EXPECT_THROW(Database::open(dir / "hitmap.db", {.read_only = true},
                                with_second("extra", "CREATE TABLE extra (x);")),
                 OlderSchema);
    EXPECT_EQ(testing::snapshot(dir / "hitmap.db"), before);
}

TEST(Migrations, ListWithAGapIsRejected) {
    TempDir dir;
    const std::array gap{schemas::migrations()[0], schemas::Migration{3, "gap", "SELECT 1;"}};
    EXPECT_THROW(Database::open(dir / "hitmap.db", {}, gap), std::invalid_argument);
}

} // namespace
} // namespace hitmap::store
