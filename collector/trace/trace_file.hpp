#pragma once
// The probe trace of a run, kept beside the database (hitmap.db.traces/run-N.trace.zst) so
// the run can be replayed later under another layout or cache model.
//
// Format: one zstd frame, with zstd's content checksum, of { header, per-thread record counts,
// records of thread 0, 1, ... }. Records are written as they are in memory (16 bytes,
// little-endian on every host we build). The run stores the file's size, an XXH3 hash of its
// bytes and the record count; reading verifies all of them, so a flipped byte, a truncated or
// extended file, or a file swapped for another run's is refused rather than replayed.
#include "collector/support/unique_fd.hpp"
#include "engine/probe/trace_record.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace hitmap::collector {

// A trace file that cannot be read (no permission, not a regular file, a symbolic link),
// truncated, corrupt or of an unknown format version.
class TraceFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// No file where the run's trace should be (deleted, or not copied with the database).
class TraceFileMissing : public TraceFileError {
public:
    using TraceFileError::TraceFileError;
};

struct StoredTrace {
    std::vector<std::vector<engine::TraceRecord>> threads;
    std::uint64_t traced_ops = 0;
};

// What the run stored about its trace file; what is unknown (older runs) is not checked.
struct TraceFileFacts {
    std::optional<std::uint64_t> bytes;
    std::optional<std::string> hash; // "xxh3:<16 hex digits>" of the file's bytes
    std::optional<std::uint64_t> records;
};

// Written under a temporary name and renamed once complete (support::ReplacingFile), so a
// failed write (full disk) leaves no partial trace behind; throws support::FileWriteError.
// Returns the file's size and hash (records are the caller's).
TraceFileFacts write_trace_file(const std::filesystem::path& path,
                                std::span<const std::span<const engine::TraceRecord>> threads,
                                std::uint64_t traced_ops);
// Throws TraceFileError naming the file and what is wrong with it.
StoredTrace read_trace_file(const std::filesystem::path& path, const TraceFileFacts& expected = {});

// The trace at `path` opened for reading, if it is a regular file there: a symbolic link is not
// followed (a database from elsewhere must not reach outside its trace folder through one) and
// a FIFO is refused without waiting for a writer. Throws TraceFileMissing or TraceFileError
// saying what is there instead.
support::UniqueFd open_trace_file(const std::filesystem::path& path);

// Copies the trace at `from` (opened as open_trace_file does) to `to`, which appears only once
// complete: a full disk leaves neither `to` nor a partial file.
void copy_trace_file(const std::filesystem::path& from, const std::filesystem::path& to);

// The name a run's trace is stored under, relative to its database's trace folder, and the
// path of that file for the database as it is named now: "<db>.traces/run-<id>.trace.zst".
// Resolving against the current name is what lets a copied or renamed database (with its
// trace folder) keep its traces.
std::string trace_file_name(std::int64_t run_id);
std::filesystem::path resolve_trace_path(const std::filesystem::path& db_path,
                                         const std::string& stored_name);
std::filesystem::path trace_path_for(const std::filesystem::path& db_path, std::int64_t run_id);

} // namespace hitmap::collector
