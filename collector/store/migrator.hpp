#pragma once
// Internal to the store: bringing an open database up to the newest schema.
#include "schemas/migrations.hpp"

#include <filesystem>
#include <span>

namespace SQLite {
class Database;
}

namespace hitmap::store {

// Throws std::invalid_argument unless the versions run 1, 2, ... N.
void require_contiguous(std::span<const schemas::Migration> migrations);

// Applies every migration newer than the file, each in its own transaction. A file that
// already held data is first copied to <path>.bak-v<N>. Returns the resulting version.
int migrate(SQLite::Database& db, const std::filesystem::path& path,
            std::span<const schemas::Migration> migrations);

// A read-only reader of an older file: the file copied into memory and the copy migrated, so
// show/export/the app read it as it is without a byte of it being written (no backup either).
// Costs memory of the file's size, for as long as the reader is open.
SQLite::Database migrated_in_memory(SQLite::Database& file, const std::filesystem::path& path,
                                    std::span<const schemas::Migration> migrations);

} // namespace hitmap::store
