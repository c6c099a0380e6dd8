#pragma once
// The probe trace of a run, kept beside the database (hitmap.db.traces/run-N.trace.zst) so
// the run can be replayed later under another layout or cache model.
//
// Format: one zstd frame, with zstd's content checksum, of { header, per-thread record counts,
// records of thread 0, 1, ... }. Records are written as they are in memory (16 bytes,
// little-endian on every host we build). The run stores the file's size, an XXH3 hash of its
// bytes and the record count; reading verifies all of them, so a flipped byte, a truncated or
// extended file, or a file swapped for another run's is refused rather than replayed.
#include "engine/probe/trace_record.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace hitmap::collector {

// A trace file that is missing, truncated, corrupt or of an unknown format version.
class TraceFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
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

// Written under a temporary name and renamed once complete, so a failed write (full disk)
// leaves no partial trace behind. Returns the file's size and hash (records are the caller's).
TraceFileFacts write_trace_file(const std::filesystem::path& path,
                                std::span<const std::span<const engine::TraceRecord>> threads,
                                std::uint64_t traced_ops);
// Throws TraceFileError naming the file and what is wrong with it.
StoredTrace read_trace_file(const std::filesystem::path& path, const TraceFileFacts& expected = {});

// The name a run's trace is stored under, relative to its database's trace folder, and the
// path of that file for the database as it is named now: "<db>.traces/run-<id>.trace.zst".
// Resolving against the current name is what lets a copied or renamed database (with its
// trace folder) keep its traces.
std::string trace_file_name(std::int64_t run_id);
std::filesystem::path resolve_trace_path(const std::filesystem::path& db_path,
                                         const std::string& stored_name);
std::filesystem::path trace_path_for(const std::filesystem::path& db_path, std::int64_t run_id);

} // namespace hitmap::collector
