// The embedded migration list, and migrating an older file (with an injected list).
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/store/store_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>

namespace hitmap::store {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

// The store's code reads the current schema, so "an older file" is today's file and a
// made-up next migration stands in for a future schema.
const int current = static_cast<int>(schemas::migrations().size());

std::vector<schemas::Migration> with_next(std::string_view name, std::string_view sql) {
    std::vector<schemas::Migration> list(schemas::migrations().begin(),
                                         schemas::migrations().end());
    list.push_back({current + 1, name, sql});
    return list;
}

std::span<const schemas::Migration> current_only() {
    return schemas::migrations();
}

// A current database holding one finished run; returns that run's id.
std::int64_t make_current(const std::filesystem::path& path) {
    auto db = Database::open(path, {}, current_only());
    const auto id = db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
    db.finish_run(id, {.metrics = {{.name = "hitm", .value = 3, .unit = "count"}}});
    return id;
}

// Rows as versions before 0005 wrote them (raw SQL: the store's code writes today's schema).
std::int64_t insert_old_run(SQLite::Database& sql, std::int64_t machine, const char* workload,
                            const char* c2c_source, const char* status) {
    SQLite::Statement insert(sql, "INSERT INTO run (machine_id, workload, variant, threads, "
                                  "duration_s, ops, ops_per_s, status, c2c_source, started_at) "
                                  "VALUES (?, ?, 'v', 1, 1.5, 100, 66.7, ?, ?, 'then')");
    insert.bind(1, machine);
    insert.bind(2, workload);
    insert.bind(3, status);
    if (c2c_source)
        insert.bind(4, c2c_source);
    else
        insert.bind(4);
    insert.exec();
    return sql.getLastInsertRowid();
}

std::int64_t insert_old_machine(SQLite::Database& sql, const char* host) {
    SQLite::Statement insert(sql, "INSERT INTO machine (host, cpu_count, kernel, cacheline_size, "
                                  "first_seen) VALUES (?, 1, 'k', 64, 'then')");
    insert.bind(1, host);
    insert.exec();
    return sql.getLastInsertRowid();
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
    const auto run_id = make_current(dir / "hitmap.db");
    const auto migrations = with_next("extra", "CREATE TABLE extra (x INTEGER);");

    auto db = Database::open(dir / "hitmap.db", {}, migrations);

    EXPECT_EQ(db.schema_version(), current + 1);
    EXPECT_TRUE(sql_connection(db).tableExists("extra"));
    EXPECT_THAT(
        sql_connection(db).execAndGet("SELECT group_concat(name) FROM schema_version").getString(),
        ::testing::EndsWith(",extra"));
    ASSERT_TRUE(db.run(run_id));
    EXPECT_EQ(db.metrics(run_id).size(), 1u);

    const auto backup = dir / fmt::format("hitmap.db.bak-v{}", current);
    ASSERT_TRUE(std::filesystem::exists(backup));
    EXPECT_FALSE(std::filesystem::exists(backup.string() + ".partial"));
    const auto old = Database::open(backup, {.read_only = true}, current_only());
    EXPECT_EQ(old.schema_version(), current);
    EXPECT_TRUE(old.run(run_id));
}

// 0005: every run gets its source; what imports did not say (threads, duration, the machine's
// CPUs and line size) becomes NULL instead of the placeholders; a predicted run keeps no
// throughput; runs left 'running' by processes older than the writer columns are abandoned.
TEST(Migrations, ProvenanceOfOlderRuns) {
    TempDir dir;
    std::int64_t imported = 0, traced = 0, measured = 0, predicted = 0, running = 0;
    {
        auto db = Database::open(dir / "hitmap.db", {}, schemas::migrations().first(4));
        const auto here = insert_old_machine(sql_connection(db), "box");
        const auto unknown = insert_old_machine(sql_connection(db), "unknown (imported)");
        imported =
            insert_old_run(sql_connection(db), unknown, "import:lockstat", nullptr, "complete");
        traced = insert_old_run(sql_connection(db), here, "w", "software", "complete");
        measured = insert_old_run(sql_connection(db), here, "w", nullptr, "complete");
        predicted = insert_old_run(sql_connection(db), here, "w", "predicted", "complete");
        running = insert_old_run(sql_connection(db), here, "w", nullptr, "running");
        sql_connection(db).exec(
            "INSERT INTO run_metric (run_id, name, value, unit, available) VALUES "
            "(2, 'c2c.records', 5, 'records', 1), (2, 'task-clock', 9, 'ns', 1)");
    }
    auto db = Database::open(dir / "hitmap.db");
    const auto imp = db.run(imported);
    ASSERT_TRUE(imp);
    EXPECT_EQ(imp->source, Source::imported);
    EXPECT_EQ(imp->threads, std::nullopt);
    EXPECT_EQ(imp->duration_s, std::nullopt);
    const auto machine = db.machine(imp->machine_id);
    ASSERT_TRUE(machine);
    EXPECT_EQ(machine->info.cpu_count, std::nullopt);
    EXPECT_EQ(machine->info.cacheline_size, std::nullopt);
    EXPECT_EQ(db.machine(db.run(traced)->machine_id)->info.cpu_count, 1);

    EXPECT_EQ(db.run(traced)->source, Source::traced);
    EXPECT_EQ(db.run(traced)->threads, 1);
    EXPECT_EQ(db.run(measured)->source, Source::measured);
    EXPECT_EQ(db.run(measured)->ops_per_s, 66.7);
    EXPECT_EQ(db.run(predicted)->source, Source::predicted);
    EXPECT_EQ(db.run(predicted)->ops, std::nullopt);
    EXPECT_EQ(db.run(predicted)->duration_s, std::nullopt);
    EXPECT_EQ(db.run(running)->status, RunStatus::abandoned);

    std::map<std::string, Source> sources;
    for (const auto& m : db.metrics(traced))
        sources[m.name] = m.source;
    EXPECT_EQ(sources.at("c2c.records"), Source::replayed);
    EXPECT_EQ(sources.at("task-clock"), Source::traced);
}

// Traces recorded before the clock column existed were all timed per access.
TEST(Migrations, TraceClockOfOlderTracesIsAccess) {
    TempDir dir;
    std::int64_t run_id = 0;
    {
        auto db = Database::open(dir / "hitmap.db", {}, schemas::migrations().first(2));
        run_id = insert_old_run(sql_connection(db), insert_old_machine(sql_connection(db), "box"),
                                "w", "software", "complete");
        SQLite::Statement insert(sql_connection(db),
                                 "INSERT INTO run_trace (run_id, path, format, threads, records, "
                                 "traced_ops, dropped_records, cpu_migrations, model_cpus, "
                                 "line_size) VALUES (?, 'old.db.traces/run-1.trace.zst', "
                                 "'hitmap-trace-v1+zstd', 2, 10, 5, 0, 0, 'recorded', 64)");
        insert.bind(1, run_id);
        insert.exec();
    }
    auto db = Database::open(dir / "hitmap.db");
    SQLite::Statement clock(sql_connection(db), "SELECT clock FROM run_trace WHERE run_id = ?");
    clock.bind(1, run_id);
    ASSERT_TRUE(clock.executeStep());
    EXPECT_EQ(clock.getColumn(0).getString(), "access");
    // 0006: paths name the file in the database's own trace folder, whatever it is called now.
    EXPECT_EQ(sql_connection(db).execAndGet("SELECT path FROM run_trace").getString(),
              "run-1.trace.zst");
    EXPECT_THROW(sql_connection(db).exec("UPDATE run_trace SET clock = 'sundial'"),
                 SQLite::Exception);
}

// Runs stored before 0011 kept the counts their source could not give as 0: the migration
// marks them unknown by the source that wrote them (import, --c2c perf, --c2c hardware), and
// a replay's stay known.
TEST(Migrations, OlderImportedAndSampledRunsMarkTheirUnknownCounts) {
    const auto migration =
        std::find_if(schemas::migrations().begin(), schemas::migrations().end(),
                     [](const schemas::Migration& m) { return m.name == "unknown_counts"; });
    ASSERT_NE(migration, schemas::migrations().end());
    struct Old {
        const char* c2c_source;
        const char* format;
        std::int64_t id;
    };
    std::array<Old, 4> runs{{{"perf-c2c", "perf-c2c-report", 0},
                             {"perf", "perf-c2c-report", 0},
                             {"hardware", "perf-samples:intel_pebs", 0},
                             {"software", "hitmap-trace-v1+zstd", 0}}};
    TempDir dir;
    {
        auto db = Database::open(
            dir / "hitmap.db", {},
            schemas::migrations().first(static_cast<std::size_t>(migration->version - 1)));
        const std::int64_t machine = db.upsert_machine(detect_machine(), "{}");
        SQLite::Statement trace(sql_connection(db),
                                "INSERT INTO run_trace (run_id, format, threads, records, "
                                "traced_ops, dropped_records, cpu_migrations, model_cpus, "
                                "line_size, clock) VALUES (?, ?, 2, 10, 0, 0, 0, "
                                "'recorded', 64, 'sampled')");
        for (Old& run : runs) {
            RunRecord record = testing::sample_run(machine);
            record.c2c_source = parse_c2c_source(run.c2c_source);
            run.id = db.begin_run(record);
            trace.bind(1, run.id);
            trace.bind(2, run.format);
            trace.exec();
            trace.reset();
        }
    }
    auto db = Database::open(dir / "hitmap.db");
    const auto known = [&](const Old& run) {
        const auto data = read_c2c(db, run.id);
        EXPECT_TRUE(data) << run.c2c_source;
        return data ? data->trace.known : KnownCounts{};
    };
    EXPECT_EQ(known(runs[0]), (KnownCounts{.store_hitm = false,
                                           .store_shared = false,
                                           .invalidations = false,
                                           .stall_cycles = false,
                                           .traced_ops = false,
                                           .dropped_records = false,
                                           .cpu_migrations = false}));
    EXPECT_EQ(known(runs[1]), (KnownCounts{.store_hitm = false,
                                           .store_shared = false,
                                           .invalidations = false,
                                           .stall_cycles = false,
                                           .dropped_records = false,
                                           .cpu_migrations = false}));
    EXPECT_EQ(known(runs[2]), (KnownCounts{.store_hitm = false,
                                           .store_shared = false,
                                           .invalidations = false,
                                           .cpu_migrations = false}));
    EXPECT_EQ(known(runs[3]), KnownCounts{});
}

// 0007 rebuilt the lock row tables with the same constraints, written as comparisons.
TEST(Migrations, LockRowsSurviveTheRebuildAndKeepTheirConstraints) {
    TempDir dir;
    {
        auto db = Database::open(dir / "hitmap.db", {}, schemas::migrations().first(6));
        const auto run =
            db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
        sql_connection(db).exec(fmt::format(
            "INSERT INTO lock_table (id, run_id, position, source, format, has_header, "
            "lockdep_disabled, excerpt) VALUES (1, {0}, 0, 'lockstat', 'lockstat_v04', 1, 0, 0);"
            "INSERT INTO lock_class_stat (table_id, run_id, class_position, name, key, "
            "class_format, side, contentions) VALUES (1, {0}, 0, 'a', 'lock_class', "
            "'lockstat_v04', 'write', 5), (1, {0}, 1, 'b', 'lock_class', 'lockstat_v04', NULL, "
            "NULL);"
            "INSERT INTO lock_point VALUES (1, 0, 'contention', 0, 3, '0x1', 'f+0x1/0x2')",
            run));
    }
    auto db = Database::open(dir / "hitmap.db");
    EXPECT_EQ(sql_connection(db)
                  .execAndGet("SELECT group_concat(name || ':' || coalesce(contentions, "
                              "'-'), ' ') FROM lock_class_stat ORDER BY class_position")
                  .getString(),
              "a:5 b:-");
    EXPECT_EQ(sql_connection(db).execAndGet("SELECT count(*) FROM lock_point").getInt(), 1);
    EXPECT_FALSE(sql_connection(db)
                     .execAndGet("SELECT count(*) FROM sqlite_schema WHERE name = "
                                 "'lock_class_stat_by_run'")
                     .getInt());
    // The same insert with valid values goes in: the refusals below are the constraints'.
    sql_connection(db).exec(
        fmt::format("INSERT INTO lock_class_stat (table_id, run_id, class_position, "
                    "name, key, class_format, side, contentions) VALUES (1, {}, 2, "
                    "'c', 'cgroup', 'x', 'read', 1)",
                    sql_connection(db).execAndGet("SELECT run_id FROM lock_table").getInt64()));
    for (const char* bad :
         {"INSERT INTO lock_class_stat (table_id, run_id, class_position, name, key, "
          "class_format) VALUES (1, 1, 3, 'c', 'bogus', 'x')",
          "INSERT INTO lock_class_stat (table_id, run_id, class_position, name, key, "
          "class_format, side) VALUES (1, 1, 3, 'c', 'caller', 'x', 'both')",
          "INSERT INTO lock_class_stat (table_id, run_id, class_position, name, key, "
          "class_format, contentions) VALUES (1, 1, 3, 'c', 'caller', 'x', 1)",
          "INSERT INTO lock_point VALUES (1, 0, 'elsewhere', 1, 3, '0x1', 'f')"})
        EXPECT_THROW(sql_connection(db).exec(bad), SQLite::Exception) << bad;
}

TEST(Migrations, FailingMigrationKeepsThePreviousVersion) {
    TempDir dir;
    const auto run_id = make_current(dir / "hitmap.db");
    const auto broken = with_next("broken", "CREATE TABLE extra (x); CREATE TABL oops;");

    try {
        Database::open(dir / "hitmap.db", {}, broken);
        FAIL() << "a broken migration applied";
    } catch (const MigrationError& e) {
        EXPECT_THAT(e.what(), HasSubstr(fmt::format("migration {:04}_broken failed", current + 1)));
    }

    auto db = Database::open(dir / "hitmap.db", {}, current_only());
    EXPECT_EQ(db.schema_version(), current);
    EXPECT_FALSE(sql_connection(db).tableExists("extra"));
    EXPECT_TRUE(db.run(run_id));
}

TEST(Migrations, MigrationBreakingAForeignKeyIsRolledBack) {
    TempDir dir;
    make_current(dir / "hitmap.db");
    const auto orphaning = with_next("orphaning", "DELETE FROM machine;");

    EXPECT_THROW(Database::open(dir / "hitmap.db", {}, orphaning), MigrationError);
    auto db = Database::open(dir / "hitmap.db", {}, current_only());
    EXPECT_EQ(sql_connection(db).execAndGet("SELECT count(*) FROM machine").getInt(), 1);
}

TEST(Migrations, FileNewerThanTheListIsRefused) {
    TempDir dir;
    Database::open(dir / "hitmap.db", {}, with_next("extra", "CREATE TABLE extra (x);"));
    try {
        Database::open(dir / "hitmap.db", {}, current_only());
        FAIL() << "newer file opened";
    } catch (const NewerSchema& e) {
        EXPECT_THAT(e.what(), HasSubstr(fmt::format("file has schema version {}, this hitmap "
                                                    "understands up to {}",
                                                    current + 1, current)));
    }
}

TEST(Migrations, ReadOnlyOpenOfAnOlderFileReadsAMigratedCopyAndLeavesTheFileUntouched) {
    TempDir dir;
    const auto id = make_current(dir / "hitmap.db");
    const auto before = testing::backdated_snapshot(dir / "hitmap.db");
    {
        auto db = Database::open(dir / "hitmap.db", {.read_only = true},
                                 with_next("extra", "CREATE TABLE extra (x); "
                                                    "INSERT INTO extra VALUES (42);"));
        EXPECT_EQ(db.schema_version(), current + 1);
        EXPECT_EQ(sql_connection(db).execAndGet("SELECT x FROM extra").getInt(), 42)
            << "migrated copy";
        ASSERT_TRUE(db.run(id).has_value());
    }
    EXPECT_EQ(testing::snapshot(dir / "hitmap.db"), before);
    EXPECT_FALSE(std::filesystem::exists(dir / fmt::format("hitmap.db.bak-v{}", current)))
        << "a read leaves no backup";
}

TEST(Migrations, ListWithAGapIsRejected) {
    TempDir dir;
    const std::array gap{schemas::migrations()[0], schemas::Migration{3, "gap", "SELECT 1;"}};
    EXPECT_THROW(Database::open(dir / "hitmap.db", {}, gap), std::invalid_argument);
}

} // namespace
} // namespace hitmap::store
