#pragma once
// The software-c2c tables of a run (schemas/migrations/0002_c2c.sql): written inside the
// run's finishing transaction (run_writer.hpp), read back for reports, predictions and the GUI.
#include "collector/c2c/replay_result.hpp"
#include "collector/store/known_counts.hpp"
#include "engine/probe/object_registry.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::store {

class Database;

struct TraceInfo {
    std::optional<std::string> path; // file name in the database's trace folder (<db>.traces)
    std::string format = "hitmap-trace-v1+zstd";
    std::uint32_t threads = 0;
    std::uint64_t records = 0;
    std::uint64_t traced_ops = 0;
    std::uint64_t dropped_records = 0;
    std::uint64_t cpu_migrations = 0;
    std::optional<std::uint64_t> bytes;
    std::optional<std::string> file_hash; // "xxh3:..." of the file; absent for older runs
    std::string model_cpus = "recorded";
    std::uint32_t line_size = 64;
    std::string clock = "access"; // engine::TraceClock, as to_string() names it
    // The cost table behind the estimated cycles (c2c::CostTable::name of the one used).
    std::string cost_table = "builtin:ccbench";
    // Which counts the source measured (run_trace.unknown_counts): all of them for a replay, a
    // simulation or a prediction. Read through C2cData::shown() and its counters.
    KnownCounts known;
    // Every HITM the capture counted, on lines it printed or not (perf c2c's Load Local + Load
    // Remote HITM): its percentages' denominator. nullopt for sources that count no such total.
    std::optional<std::uint64_t> capture_hitm;
};

// TraceInfo::format of a run imported from `perf c2c report` text: no trace, perf's counts.
inline constexpr const char* kPerfC2cReportFormat = "perf-c2c-report";

struct C2cData {
    std::vector<engine::ObjectInfo> objects;
    TraceInfo trace;
    c2c::ReplayResult result;

    // `counts` of this data as reports show them: what the source lacks is unknown.
    ShownCounts shown(const c2c::ClassCounts& counts) const {
        return shown_counts(counts, trace.known);
    }
    // The trace's counters; nullopt where the source could not count them.
    std::optional<std::uint64_t> traced_ops() const;
    std::optional<std::uint64_t> dropped_records() const;
    std::optional<std::uint64_t> cpu_migrations() const;
};

// The object a line or field belongs to, or null for an id the data does not name.
const engine::ObjectInfo* find_object(const C2cData& data, engine::ObjectId id);

// nullopt when the run has no c2c data (c2c off, or not finished).
std::optional<C2cData> read_c2c(Database& db, std::int64_t run_id);
// Whether the run's row in run_trace names a kept trace file.
bool has_stored_trace(Database& db, std::int64_t run_id);
// TraceInfo::path as read from `db_path`: throws TracePathOutsideFolder unless it is one plain
// file name (no folder in it, not "." or ".."), so that it resolves inside the trace folder.
void check_trace_name(const std::filesystem::path& db_path, std::int64_t run_id,
                      const std::string& stored);

} // namespace hitmap::store
