#pragma once
// Trace files no run owns: left by a run that failed after writing its trace, or by a process
// killed between writing the trace and storing the run. They are removed, never replayed.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace hitmap::store {
class Database;
}

namespace hitmap::collector {

// Removes "<db>.traces/run-N.trace.zst" (and partial files) whose run N is gone or finished
// without a stored trace; a run still running keeps its file. Returns the removed paths.
std::vector<std::filesystem::path> remove_orphan_traces(store::Database& db);

// The trace file of one run, if any: used when the run could not be stored.
void remove_trace_of(const std::filesystem::path& db_path, std::int64_t run_id);

} // namespace hitmap::collector
