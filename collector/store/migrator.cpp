#include "collector/store/migrator.hpp"

#include "collector/store/errors.hpp"
#include "collector/store/layout_table.hpp"
#include "collector/store/timestamp.hpp"

#include <SQLiteCpp/Backup.h>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <fmt/format.h>
#include <stdexcept>

namespace hitmap::store {
namespace {

int user_version(SQLite::Database& db) {
    return db.execAndGet("PRAGMA user_version").getInt();
}

// Written under a temporary name and renamed, so a backup file is never half a copy.
void back_up(SQLite::Database& source, const std::filesystem::path& destination) {
    const std::filesystem::path partial = destination.string() + ".partial";
    try {
        std::filesystem::remove(partial);
        {
            SQLite::Database copy(partial, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            SQLite::Backup(copy, source).executeStep();
        }
        std::filesystem::rename(partial, destination);
    } catch (const SQLite::Exception& e) {
        throw_decoded(e, destination);
    } catch (const std::filesystem::filesystem_error& e) {
        throw StoreIoError(destination, fmt::format("cannot write backup: {}", e.code().message()));
    }
}

void apply(SQLite::Database& db, const std::filesystem::path& path,
           const schemas::Migration& migration) {
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    // Another process may have migrated between our check and taking the write lock.
    const int current = user_version(db);
    if (current >= migration.version)
        return;
    try {
        if (current == 0)
            db.exec(fmt::format("PRAGMA application_id = {}", schemas::application_id));
        db.exec(std::string(migration.sql));
        // Migrations run with foreign keys off (a table rebuild would otherwise cascade
        // deletes), so the result is checked before it commits.
        if (SQLite::Statement check(db, "PRAGMA foreign_key_check"); check.executeStep())
            throw MigrationError(path, fmt::format("migration {:04}_{} leaves rows in {} "
                                                   "violating a foreign key",
                                                   migration.version, migration.name,
                                                   check.getColumn(0).getString()));
        db.exec(fmt::format("PRAGMA user_version = {}", migration.version));
        SQLite::Statement record(
            db, "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)");
        record.bind(1, migration.version);
        record.bind(2, std::string(migration.name));
        record.bind(3, utc_now());
        record.exec();
    } catch (const SQLite::Exception& e) {
        throw MigrationError(path, fmt::format("migration {:04}_{} failed: {}", migration.version,
                                               migration.name, e.what()));
    }
    tx.commit();
}

} // namespace

void require_contiguous(std::span<const schemas::Migration> migrations) {
    for (std::size_t i = 0; i < migrations.size(); ++i)
        if (migrations[i].version != static_cast<int>(i + 1))
            throw std::invalid_argument(
                fmt::format("migration versions must run 1..N; position {} has version {}", i + 1,
                            migrations[i].version));
}

int migrate(SQLite::Database& db, const std::filesystem::path& path,
            std::span<const schemas::Migration> migrations) {
    const int latest = migrations.empty() ? 0 : migrations.back().version;
    if (const int from = user_version(db); from > 0 && from < latest)
        back_up(db, fmt::format("{}.bak-v{}", path.string(), from));
    register_layout_hash(db); // 0010 hashes the stored layouts
    for (const auto& migration : migrations)
        apply(db, path, migration);
    return user_version(db);
}

SQLite::Database migrated_in_memory(SQLite::Database& file, const std::filesystem::path& path,
                                    std::span<const schemas::Migration> migrations) {
    SQLite::Database copy(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    try {
        SQLite::Backup(copy, file).executeStep();
    } catch (const SQLite::Exception& e) {
        throw_decoded(e, path);
    }
    register_layout_hash(copy);
    for (const auto& migration : migrations)
        apply(copy, path, migration);
    return copy;
}

} // namespace hitmap::store
