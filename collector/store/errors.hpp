#pragma once
// One exception type per way a store file can fail; what() is one line naming the file.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace SQLite {
class Exception;
}

namespace hitmap::store {

class StoreError : public std::runtime_error {
public:
    StoreError(const std::filesystem::path& path, const std::string& detail);
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

// The file exists but belongs to something else (not SQLite, another application_id, or
// foreign tables). It is left untouched.
class NotAHitmapDatabase : public StoreError {
public:
    using StoreError::StoreError;
};

// Written by a newer hitmap; left untouched rather than half-understood.
class NewerSchema : public StoreError {
public:
    NewerSchema(const std::filesystem::path& path, int file_version, int known_version);
};

// Needs a migration before this use (a merge input is attached as it is on disk).
class OlderSchema : public StoreError {
public:
    OlderSchema(const std::filesystem::path& path, int file_version, int known_version);
};

// A migration's SQL failed; the file stays at the last version that applied.
class MigrationError : public StoreError {
public:
    using StoreError::StoreError;
};

class CorruptDatabase : public StoreError {
public:
    using StoreError::StoreError;
};

// Cannot create, open, read or write the file (permissions, missing directory, disk full).
class StoreIoError : public StoreError {
public:
    using StoreError::StoreError;
};

// finish_run on a run that does not exist or has already finished.
class RunStateError : public StoreError {
public:
    using StoreError::StoreError;
};

// merge: an input that is the output itself, or holds a table this build does not merge.
class MergeError : public StoreError {
public:
    using StoreError::StoreError;
};

// A run_trace row whose path is not a plain file name ("../../etc/shadow", "/tmp/x", "a/b"):
// a database may name files in its own trace folder only, for it may come from elsewhere.
class TracePathOutsideFolder : public StoreError {
public:
    TracePathOutsideFolder(const std::filesystem::path& path, std::int64_t run_id,
                           const std::string& stored);
};

// A run id the database does not hold.
class NoSuchRun : public StoreError {
public:
    NoSuchRun(const std::filesystem::path& path, std::int64_t run_id);
};

// A selection (a workload, a set of ids) that matches no complete run of the database.
class NoMatchingRuns : public StoreError {
public:
    using StoreError::StoreError;
};

// Rethrows a SQLiteCpp exception as the store error of its kind.
[[noreturn]] void throw_decoded(const SQLite::Exception& e, const std::filesystem::path& path);

} // namespace hitmap::store
