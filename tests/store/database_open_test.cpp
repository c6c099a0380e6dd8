// Opening rules: what is created, what is refused untouched, and the I/O failures.
#include "collector/store/database.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/store/store_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::store {
namespace {

using ::testing::HasSubstr;
using testing::snapshot;
using testing::TempDir;

// Runs `open` expecting exception E, and checks the file was neither changed nor joined by
// SQLite side files; returns the message.
template <class E>
std::string expect_refused_untouched(const std::filesystem::path& path, OpenOptions options = {}) {
    const auto before = testing::backdated_snapshot(path);
    std::string message;
    try {
        Database::open(path, options);
        ADD_FAILURE() << "open succeeded on " << path;
    } catch (const E& e) {
        message = e.what();
    }
    EXPECT_EQ(snapshot(path), before) << "refused file was modified";
    EXPECT_FALSE(std::filesystem::exists(path.string() + "-journal"));
    EXPECT_THAT(message, HasSubstr(path.string()));
    return message;
}

TEST(DatabaseOpen, FreshDatabaseHasEveryMigrationAndTheApplicationId) {
    TempDir dir;
    auto db = Database::open(dir / "hitmap.db");

    EXPECT_EQ(db.schema_version(), Database::latest_schema_version());
    EXPECT_EQ(sql_connection(db).execAndGet("PRAGMA application_id").getInt(),
              schemas::application_id);
    EXPECT_EQ(sql_connection(db).execAndGet("PRAGMA user_version").getInt(),
              Database::latest_schema_version());
    EXPECT_EQ(sql_connection(db).execAndGet("PRAGMA journal_mode").getString(), "wal");
    EXPECT_EQ(sql_connection(db).execAndGet("PRAGMA foreign_keys").getInt(), 1);
    SQLite::Statement history(sql_connection(db),
                              "SELECT version, name FROM schema_version ORDER BY 1");
    for (const auto& migration : schemas::migrations()) {
        ASSERT_TRUE(history.executeStep());
        EXPECT_EQ(history.getColumn(0).getInt(), migration.version);
        EXPECT_EQ(history.getColumn(1).getString(), migration.name);
    }
    EXPECT_FALSE(history.executeStep());
    for (const char* table : {"machine", "run", "run_metric"})
        EXPECT_TRUE(sql_connection(db).tableExists(table)) << table;
}

TEST(DatabaseOpen, ZeroLengthFileCountsAsNew) {
    TempDir dir;
    testing::write_bytes(dir / "hitmap.db", "");
    EXPECT_EQ(Database::open(dir / "hitmap.db").schema_version(),
              Database::latest_schema_version());
}

TEST(DatabaseOpen, SqliteFileWithoutTablesIsAdopted) {
    TempDir dir;
    {
        SQLite::Database raw(dir / "empty.db", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec("CREATE TABLE t (x); DROP TABLE t;");
    }
    EXPECT_EQ(Database::open(dir / "empty.db").schema_version(), Database::latest_schema_version());
}

TEST(DatabaseOpen, ReopeningKeepsTheSchema) {
    TempDir dir;
    Database::open(dir / "hitmap.db");
    const auto db = Database::open(dir / "hitmap.db");
    EXPECT_EQ(db.schema_version(), Database::latest_schema_version());
    EXPECT_FALSE(std::filesystem::exists(
        dir.path() / ("hitmap.db.bak-v" + std::to_string(db.schema_version()))));
}

TEST(DatabaseOpen, TextFileIsRefusedUntouched) {
    TempDir dir;
    testing::write_bytes(dir / "notes.db", "these are my notes, not a database\n");
    const auto message = expect_refused_untouched<NotAHitmapDatabase>(dir / "notes.db");
    EXPECT_THAT(message, HasSubstr("not an SQLite database"));
    EXPECT_FALSE(std::filesystem::exists(dir / "notes.db-wal"));
}

TEST(DatabaseOpen, ShortFileIsRefusedUntouched) {
    TempDir dir;
    testing::write_bytes(dir / "short.db", "SQLite");
    expect_refused_untouched<NotAHitmapDatabase>(dir / "short.db");
}

TEST(DatabaseOpen, DirectoryIsRefused) {
    TempDir dir;
    EXPECT_THROW(Database::open(dir.path()), NotAHitmapDatabase);
}

TEST(DatabaseOpen, SqliteDatabaseOfAnotherApplicationIsRefusedUntouched) {
    TempDir dir;
    {
        SQLite::Database raw(dir / "other.db", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec("PRAGMA application_id = 305419896; CREATE TABLE contacts (name TEXT);"
                 "INSERT INTO contacts VALUES ('ada');");
    }
    const auto message = expect_refused_untouched<NotAHitmapDatabase>(dir / "other.db");
    EXPECT_THAT(message, HasSubstr("0x12345678"));
}

TEST(DatabaseOpen, SqliteDatabaseWithForeignTablesIsRefusedUntouched) {
    TempDir dir;
    {
        SQLite::Database raw(dir / "other.db", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec("PRAGMA journal_mode = WAL; CREATE TABLE run (id INTEGER PRIMARY KEY);");
    }
    const auto message = expect_refused_untouched<NotAHitmapDatabase>(dir / "other.db");
    EXPECT_THAT(message, HasSubstr("another application"));
}

TEST(DatabaseOpen, NewerSchemaIsRefusedUntouchedNamingBothVersions) {
    TempDir dir;
    Database::open(dir / "hitmap.db");
    {
        SQLite::Database raw(dir / "hitmap.db", SQLite::OPEN_READWRITE);
        raw.exec(fmt::format("PRAGMA user_version = {}", Database::latest_schema_version() + 1));
    }
    const auto message = expect_refused_untouched<NewerSchema>(dir / "hitmap.db");
    EXPECT_THAT(message, HasSubstr(fmt::format("file has schema version {}, this hitmap "
                                               "understands up to {}",
                                               Database::latest_schema_version() + 1,
                                               Database::latest_schema_version())));
    expect_refused_untouched<NewerSchema>(dir / "hitmap.db", {.read_only = true});
}

// Both version markers the store writes count: a schema_version row of a later migration is a
// newer file even where PRAGMA user_version was left behind.
TEST(DatabaseOpen, NewerSchemaVersionRowIsRefusedUntouched) {
    TempDir dir;
    Database::open(dir / "hitmap.db");
    const int newer = Database::latest_schema_version() + 1;
    {
        SQLite::Database raw(dir / "hitmap.db", SQLite::OPEN_READWRITE);
        raw.exec(fmt::format("INSERT INTO schema_version (version, name, applied_at) VALUES "
                             "({}, 'future', 'later')",
                             newer));
    }
    const auto message = expect_refused_untouched<NewerSchema>(dir / "hitmap.db");
    EXPECT_THAT(message, HasSubstr(fmt::format("file has schema version {}", newer)));
}

TEST(DatabaseOpen, DamagedSqliteFileIsCorruptAndUntouched) {
    TempDir dir;
    testing::write_bytes(dir / "damaged.db",
                         std::string("SQLite format 3\0", 16) + std::string(4080, '\x5a'));
    expect_refused_untouched<CorruptDatabase>(dir / "damaged.db");
}

TEST(DatabaseOpen, UnwritableDirectoryIsAnIoError) {
    if (::geteuid() == 0)
        GTEST_SKIP() << "root ignores directory permissions";
    TempDir dir;
    std::filesystem::create_directory(dir / "locked");
    std::filesystem::permissions(dir / "locked", std::filesystem::perms::owner_read |
                                                     std::filesystem::perms::owner_exec);
    try {
        Database::open(dir / "locked" / "hitmap.db");
        FAIL() << "open succeeded in an unwritable directory";
    } catch (const StoreIoError& e) {
        EXPECT_THAT(e.what(), HasSubstr("Permission denied"));
    }
}

TEST(DatabaseOpen, ReadOnlyFileOpenedForWritingIsAnIoError) {
    if (::geteuid() == 0)
        GTEST_SKIP() << "root ignores file permissions";
    TempDir dir;
    Database::open(dir / "hitmap.db");
    std::filesystem::permissions(dir / "hitmap.db", std::filesystem::perms::owner_read);
    try {
        Database::open(dir / "hitmap.db");
        FAIL() << "opened an unwritable file for writing";
    } catch (const StoreIoError& e) {
        EXPECT_THAT(e.what(), HasSubstr("cannot write"));
    }
    EXPECT_EQ(Database::open(dir / "hitmap.db", {.read_only = true}).schema_version(),
              Database::latest_schema_version());
}

TEST(DatabaseOpen, PathUnderARegularFileIsAnIoError) {
    TempDir dir;
    testing::write_bytes(dir / "file", "x");
    try {
        Database::open(dir / "file" / "hitmap.db");
        FAIL() << "open succeeded below a regular file";
    } catch (const StoreIoError& e) {
        EXPECT_THAT(e.what(), HasSubstr((dir / "file" / "hitmap.db").string()));
        EXPECT_THAT(e.what(), HasSubstr("Not a directory"));
    }
}

TEST(DatabaseOpen, MissingFileWithoutCreateIsAnIoErrorAndCreatesNothing) {
    TempDir dir;
    EXPECT_THROW(Database::open(dir / "absent.db", {.create_if_missing = false}), StoreIoError);
    EXPECT_THROW(Database::open(dir / "absent.db", {.read_only = true}), StoreIoError);
    EXPECT_FALSE(std::filesystem::exists(dir / "absent.db"));
}

TEST(DatabaseOpen, ReadOnlyOpenReadsButDoesNotWrite) {
    TempDir dir;
    std::int64_t machine_id = 0;
    {
        auto db = Database::open(dir / "hitmap.db");
        machine_id = db.upsert_machine(detect_machine(), "{}");
        db.begin_run(testing::sample_run(machine_id));
    }
    auto db = Database::open(dir / "hitmap.db", {.read_only = true});
    EXPECT_EQ(db.runs().size(), 1u);
    EXPECT_THROW(db.begin_run(testing::sample_run(machine_id)), StoreIoError);
}

// show, report and export read through a read-only open: once it is closed the folder holds
// the database file alone, as a writer leaves it, with not a byte of it changed.
TEST(DatabaseOpen, ReadOnlyOpenLeavesNoWalOrShmFilesBehind) {
    TempDir dir;
    const auto path = dir / "hitmap.db";
    {
        auto db = Database::open(path);
        db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
    }
    ASSERT_FALSE(std::filesystem::exists(dir / "hitmap.db-wal"));
    const auto before = testing::backdated_snapshot(path);
    {
        auto db = Database::open(path, {.read_only = true});
        EXPECT_EQ(db.runs().size(), 1u);
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "hitmap.db-wal"));
    EXPECT_FALSE(std::filesystem::exists(dir / "hitmap.db-shm"));
    EXPECT_EQ(testing::snapshot(path), before);
}

} // namespace
} // namespace hitmap::store
