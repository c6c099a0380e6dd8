#include "collector/store/errors.hpp"

#include <SQLiteCpp/Exception.h>
#include <fmt/format.h>
#include <sqlite3.h>

namespace hitmap::store {

StoreError::StoreError(const std::filesystem::path& path, const std::string& detail)
    : std::runtime_error(fmt::format("{}: {}", path.string(), detail))
    , path_(path) {}

NewerSchema::NewerSchema(const std::filesystem::path& path, int file_version, int known_version)
    : StoreError(path, fmt::format("file has schema version {}, this hitmap understands up to {}",
                                   file_version, known_version)) {}

OlderSchema::OlderSchema(const std::filesystem::path& path, int file_version, int known_version)
    : StoreError(path, fmt::format("file has schema version {}, this hitmap needs {}; open it "
                                   "read-write once to migrate it (a backup is kept)",
                                   file_version, known_version)) {}

TracePathOutsideFolder::TracePathOutsideFolder(const std::filesystem::path& path,
                                               std::int64_t run_id, const std::string& stored)
    : StoreError(path, fmt::format("run {}'s trace path {:?} is not a file name in the "
                                   "database's trace folder (refused: it points outside it)",
                                   run_id, stored)) {}

NoSuchRun::NoSuchRun(const std::filesystem::path& path, std::int64_t run_id)
    : StoreError(path, fmt::format("run {} is not in the database", run_id)) {}

void throw_decoded(const SQLite::Exception& e, const std::filesystem::path& path) {
    switch (e.getErrorCode()) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        throw CorruptDatabase(path, e.what());
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_FULL:
        throw StoreIoError(path, e.what());
    default:
        throw StoreError(path, e.what());
    }
}

} // namespace hitmap::store
