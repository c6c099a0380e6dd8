#pragma once
// Internal to the store: what an existing path holds, found without writing a byte to it.
#include <filesystem>
#include <optional>

namespace hitmap::store {

// The schema version of the hitmap database at `path`, or nullopt where there is no database
// yet (no file, a zero-length file, or an SQLite file with no tables). Throws
// NotAHitmapDatabase, CorruptDatabase or StoreIoError.
std::optional<int> probe_schema_version(const std::filesystem::path& path);

} // namespace hitmap::store
