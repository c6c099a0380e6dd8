#pragma once
// Databases from several machines combined into one (`hitmap-collect merge a.db b.db -o all.db`):
// runs get new ids, machines stay distinguishable, layouts are shared by their signature, trace
// files follow their runs. A run already in the output (the same machine, workload, variant,
// parameters, source and timestamps) is not added again, so merging twice changes nothing.
#include "collector/store/database.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace hitmap::store {

struct MergeCounts {
    std::size_t added = 0;           // runs copied with their tables
    std::size_t already_present = 0; // runs the output held already
    std::size_t running = 0;         // runs still running in the input: not copied
    std::size_t traces = 0;          // trace files copied
    std::size_t missing_traces = 0;  // named by the input, not in its trace folder
};

// The trace files of the runs merged (their folders are the collector's business).
struct TraceFiles {
    // Copies the input's trace `stored_name` (a plain file name: merge_into checks) for the
    // output's new run `run_id`, and returns the name the output stores for it; nullopt when the
    // input has no such file (the output then says the trace was not kept). Any other failure
    // throws, one line, and merge_into refuses the input naming the run.
    std::function<std::optional<std::string>(const std::string& stored_name, std::int64_t run_id)>
        copy;
    // Removes a copy again: the merge failed after it was made.
    std::function<void(const std::string& copied_name)> remove;
};

// Adds `input`'s finished runs to `out` in one transaction: all of them or, if anything fails,
// none (trace files copied before the failure are removed). The input is opened read-only first
// and refused as Database::open refuses (not hitmap, newer, or older than this build: migrate it
// by opening it once), so both files have the same schema.
MergeCounts merge_into(Database& out, const std::filesystem::path& input, const TraceFiles& traces);

} // namespace hitmap::store
