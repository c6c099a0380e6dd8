#pragma once
// The probe trace of a run, kept beside the database (hitmap.db.traces/run-N.trace.zst) so
// the run can be replayed later under another layout or cache model.
//
// Format: zstd frame of { header, per-thread record counts, records of thread 0, 1, ... }.
// Records are written as they are in memory (16 bytes, little-endian on every host we build).
#include "engine/probe/trace_record.hpp"

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
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

// Returns the number of bytes written.
std::uint64_t write_trace_file(const std::filesystem::path& path,
                               std::span<const std::span<const engine::TraceRecord>> threads,
                               std::uint64_t traced_ops);
StoredTrace read_trace_file(const std::filesystem::path& path);

// "<db>.traces/run-<id>.trace.zst" and its path relative to the database's folder.
std::filesystem::path trace_path_for(const std::filesystem::path& db_path, std::int64_t run_id);
std::filesystem::path relative_trace_path(const std::filesystem::path& db_path,
                                          std::int64_t run_id);

} // namespace hitmap::collector
