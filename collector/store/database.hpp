#pragma once
// The hitmap SQLite store: opening (with its refusal and migration rules), machines, runs and
// their metrics. A run's other tables are written through the RunWriter that finish_run and
// insert_finished_run hand their `extra`; the store's own table modules reach the connection
// through sql_connection.hpp.
#include "collector/store/errors.hpp"
#include "collector/store/machine_info.hpp"
#include "collector/store/records.hpp"
#include "schemas/migrations.hpp"

#include <SQLiteCpp/Database.h>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hitmap::store {

struct OpenOptions {
    bool create_if_missing = true;
    bool read_only = false;
};

class RunWriter;

class Database {
public:
    // A file that is not a hitmap database, is newer or is corrupt is refused without a byte
    // of it being written. No file (or a zero-length one) becomes a new database; an older
    // one is copied to <path>.bak-v<N> and migrated. `migrations` is replaceable for tests.
    static Database open(const std::filesystem::path& path, OpenOptions options = {},
                         std::span<const schemas::Migration> migrations = schemas::migrations());

    // The newest version this build understands.
    static int latest_schema_version();
    int schema_version() const { return version_; }
    const std::filesystem::path& path() const { return path_; }

    // The id of the row describing this machine, reusing an identical one.
    std::int64_t upsert_machine(const MachineInfo& machine, const std::string& pmu_json);
    std::optional<MachineRecord> machine(std::int64_t id) const;

    // Commits a 'running' row at once, so a crashed run stays visible as incomplete. The
    // store stamps id, status, started_at and finished_at; the record's values are ignored.
    std::int64_t begin_run(const RunRecord& run);
    // Updates the run, writes its metrics and calls `extra` with the run's writer in one
    // transaction; if anything throws, nothing is written and the run stays 'running'.
    void finish_run(std::int64_t run_id, const RunOutcome& outcome,
                    const std::function<void(RunWriter&)>& extra = {});
    // A run that is complete when it is first seen (imports, predictions): the row, its
    // metrics and `extra` in one transaction, so a refused write or a kill leaves no row.
    // `extra`'s writer is bound to the new run. Inside transaction() the run joins that
    // transaction.
    std::int64_t insert_finished_run(const RunRecord& run, const RunOutcome& outcome,
                                     const std::function<void(RunWriter&)>& extra = {});

    // Runs `body` in one write transaction: everything it stores, or nothing.
    void transaction(const std::function<void()>& body);

    std::vector<RunRecord> runs(const RunFilter& filter = {}) const;
    std::optional<RunRecord> run(std::int64_t id) const;
    std::vector<Metric> metrics(std::int64_t run_id) const; // by name
    // The newest complete prediction (`predict --store`) replaying `from`'s trace at `threads`
    // under the layouts run `layouts_of` recorded its objects under (every one, and no other).
    std::optional<RunRecord> latest_prediction(std::int64_t from, std::optional<int> threads,
                                               std::int64_t layouts_of) const;

private:
    friend SQLite::Database& sql_connection(Database& db); // sql_connection.hpp
    Database(std::filesystem::path path, SQLite::Database db, int version);
    // Stores as 'abandoned' the running runs of this host whose writing process is gone.
    void mark_abandoned_runs();

    std::filesystem::path path_;
    SQLite::Database db_;
    int version_;
};

} // namespace hitmap::store
