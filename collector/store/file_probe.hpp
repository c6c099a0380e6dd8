#pragma once
// Internal to the store: what an existing path holds, found without writing a byte to it.
#include <SQLiteCpp/Database.h>
#include <filesystem>
#include <optional>

namespace hitmap::store {

// The schema version of the hitmap database at `path`, or nullopt where there is no database
// yet (no file, a zero-length file, or an SQLite file with no tables). Throws
// NotAHitmapDatabase, CorruptDatabase or StoreIoError.
std::optional<int> probe_schema_version(const std::filesystem::path& path);

// A connection that reads without writing the database, leaves no -wal/-shm files behind where
// it made them, and works where the folder is read-only too. A WAL database needs
// its -shm/-wal files, which such a folder cannot hold; with no WAL content left behind the
// file alone is the whole database, so it is opened immutable. Throws SQLite::Exception, or
// StoreIoError when the folder is read-only and unsaved WAL content cannot be read.
SQLite::Database open_sqlite_read_only(const std::filesystem::path& path, int busy_timeout_ms);

} // namespace hitmap::store
