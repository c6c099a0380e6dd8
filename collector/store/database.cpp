#include "collector/store/database.hpp"

#include "collector/store/file_probe.hpp"
#include "collector/store/migrator.hpp"
#include "collector/store/process_identity.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "collector/store/timestamp.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <stdexcept>
#include <unistd.h>

namespace hitmap::store {
namespace {

constexpr int busy_timeout_ms = 5000;
// The migration (0005_provenance) that added run.writer_pid and run.writer_start.
constexpr int kWriterColumnsVersion = 5;

// The migration (0008_simulation) that added run_simulation.
constexpr int kSimulationVersion = 8;

// Column 20: the simulated machine, from run_simulation where the file has that table (tests
// read runs of files at older versions).
std::string run_columns(int version) {
    return fmt::format(
        "id, machine_id, workload, variant, params_json, threads, duration_s, ops, ops_per_s, "
        "status, c2c_source, started_at, finished_at, note, source, c2c_reason, predicted_from, "
        "writer_pid, writer_start, (SELECT host FROM machine WHERE machine.id = run.machine_id), "
        "{}",
        version >= kSimulationVersion
            ? "(SELECT machine FROM run_simulation WHERE run_simulation.run_id = run.id)"
            : "NULL");
}

// SQLite failures leave the store as the store error of their kind; others pass unchanged.
template <class F> decltype(auto) guarded(const std::filesystem::path& path, F&& f) {
    try {
        return f();
    } catch (const SQLite::Exception& e) {
        throw_decoded(e, path);
    }
}

// Stored canonically (sorted keys, no whitespace) so identical JSON compares equal as text.
std::string canonical_json(const std::string& text, const char* what) {
    try {
        return nlohmann::json::parse(text).dump();
    } catch (const nlohmann::json::parse_error& e) {
        throw std::invalid_argument(fmt::format("{} is not valid JSON: {}", what, e.what()));
    }
}

// SQLite creates the file too, but only this way does a failure say why (errno).
void create_empty_file(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        throw StoreIoError(path, fmt::format("cannot create: {}", std::strerror(errno)));
    ::close(fd);
}

template <class T> void bind_optional(SQLite::Statement& s, int index, const std::optional<T>& v) {
    if (v)
        s.bind(index, *v);
    else
        s.bind(index);
}

std::optional<std::string> optional_text(const SQLite::Column& c) {
    return c.isNull() ? std::nullopt : std::optional(c.getString());
}
std::optional<std::int64_t> optional_int64(const SQLite::Column& c) {
    return c.isNull() ? std::nullopt : std::optional(c.getInt64());
}
std::optional<double> optional_double(const SQLite::Column& c) {
    return c.isNull() ? std::nullopt : std::optional(c.getDouble());
}
std::optional<int> optional_int(const SQLite::Column& c) {
    return c.isNull() ? std::nullopt : std::optional(c.getInt());
}

// The process that wrote a 'running' row, when it was this host's and is gone.
bool writer_gone(const SQLite::Statement& q) {
    if (q.getColumn(17).isNull() || q.getColumn(19).getString() != detect_machine().host)
        return false;
    return !process_alive({q.getColumn(17).getInt64(), q.getColumn(18).getInt64()});
}

RunRecord read_run(const SQLite::Statement& q) {
    RunRecord run{.id = q.getColumn(0).getInt64(),
                  .machine_id = q.getColumn(1).getInt64(),
                  .workload = q.getColumn(2).getString(),
                  .variant = q.getColumn(3).getString(),
                  .params_json = q.getColumn(4).getString(),
                  .source = parse_source(q.getColumn(14).getString()),
                  .threads = optional_int(q.getColumn(5)),
                  .duration_s = optional_double(q.getColumn(6)),
                  .ops = optional_int64(q.getColumn(7)),
                  .ops_per_s = optional_double(q.getColumn(8)),
                  .status = parse_run_status(q.getColumn(9).getString()),
                  .c2c_source = q.getColumn(10).isNull()
                                    ? std::nullopt
                                    : std::optional(parse_c2c_source(q.getColumn(10).getString())),
                  .c2c_reason = optional_text(q.getColumn(15)),
                  .started_at = q.getColumn(11).getString(),
                  .finished_at = optional_text(q.getColumn(12)),
                  .note = optional_text(q.getColumn(13)),
                  .predicted_from = optional_int64(q.getColumn(16)),
                  .simulated_machine = optional_text(q.getColumn(20))};
    // A read-only reader cannot store the verdict, but must not show a dead run as running.
    if (run.status == RunStatus::running && writer_gone(q))
        run.status = RunStatus::abandoned;
    return run;
}

// Parameters 1..6 in the column order of both machine statements.
void bind_machine(SQLite::Statement& s, const MachineInfo& m, const std::string& pmu_json) {
    s.bind(1, m.host);
    bind_optional(s, 2, m.cpu_model);
    bind_optional(s, 3, m.cpu_count);
    s.bind(4, m.kernel);
    bind_optional(s, 5, m.cacheline_size);
    s.bind(6, pmu_json);
}

std::int64_t insert_run(SQLite::Database& db, const RunRecord& run, const std::string& params,
                        RunStatus status) {
    SQLite::Statement insert(
        db, "INSERT INTO run (machine_id, workload, variant, params_json, source, threads, "
            "duration_s, ops, ops_per_s, status, c2c_source, c2c_reason, started_at, note, "
            "predicted_from, writer_pid, writer_start) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, run.machine_id);
    insert.bind(2, run.workload);
    insert.bind(3, run.variant);
    insert.bind(4, params);
    insert.bind(5, std::string(to_string(run.source)));
    bind_optional(insert, 6, run.threads);
    bind_optional(insert, 7, run.duration_s);
    bind_optional(insert, 8, run.ops);
    bind_optional(insert, 9, run.ops_per_s);
    insert.bind(10, std::string(to_string(status)));
    bind_optional(insert, 11, c2c_source_text(run.c2c_source));
    bind_optional(insert, 12, run.c2c_reason);
    insert.bind(13, utc_now());
    bind_optional(insert, 14, run.note);
    bind_optional(insert, 15, run.predicted_from);
    const ProcessIdentity writer = current_process();
    insert.bind(16, writer.pid);
    insert.bind(17, writer.start_ticks);
    insert.exec();
    return db.getLastInsertRowid();
}

// The outcome's values and metrics of a 'running' run; the caller holds the transaction.
void write_outcome(SQLite::Database& db, const std::filesystem::path& path, std::int64_t run_id,
                   const RunOutcome& outcome,
                   const std::function<std::optional<RunRecord>()>& existing) {
    SQLite::Statement update(
        db, "UPDATE run SET status = ?, ops = ?, ops_per_s = ?, "
            "duration_s = coalesce(?, duration_s), note = coalesce(?, note), "
            "params_json = coalesce(?, params_json), finished_at = ?, "
            "writer_pid = NULL, writer_start = NULL WHERE id = ? AND status = 'running'");
    update.bind(1, std::string(to_string(outcome.status)));
    bind_optional(update, 2, outcome.ops);
    bind_optional(update, 3, outcome.ops_per_s);
    bind_optional(update, 4, outcome.duration_s);
    bind_optional(update, 5, outcome.note);
    bind_optional(update, 6,
                  outcome.params_json
                      ? std::optional(canonical_json(*outcome.params_json, "run params_json"))
                      : std::nullopt);
    update.bind(7, utc_now());
    update.bind(8, run_id);
    if (update.exec() == 0) {
        const auto run = existing();
        throw RunStateError(
            path, run ? fmt::format("run {} is already {}", run_id, to_string(run->status))
                      : fmt::format("run {} does not exist", run_id));
    }
    SQLite::Statement insert(db, "INSERT INTO run_metric (run_id, name, value, unit, "
                                 "available, reason, source, scaled) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    for (const Metric& m : outcome.metrics) {
        insert.bind(1, run_id);
        insert.bind(2, m.name);
        bind_optional(insert, 3, m.value);
        insert.bind(4, m.unit);
        insert.bind(5, m.available ? 1 : 0);
        bind_optional(insert, 6, m.reason);
        insert.bind(7, std::string(to_string(m.source)));
        if (m.scaled)
            insert.bind(8, *m.scaled ? 1 : 0);
        else
            insert.bind(8);
        insert.exec();
        insert.reset();
    }
}

} // namespace

Database::Database(std::filesystem::path path, SQLite::Database db, int version)
    : path_(std::move(path))
    , db_(std::move(db))
    , version_(version) {}

SQLite::Database& sql_connection(Database& db) {
    return db.db_;
}

int Database::latest_schema_version() {
    return static_cast<int>(schemas::migrations().size());
}

Database Database::open(const std::filesystem::path& path, OpenOptions options,
                        std::span<const schemas::Migration> migrations) {
    require_contiguous(migrations);
    const int latest = static_cast<int>(migrations.size());
    const std::optional<int> existing = probe_schema_version(path);
    if (existing && *existing > latest)
        throw NewerSchema(path, *existing, latest);

    if (options.read_only) {
        if (!existing)
            throw StoreIoError(path, "no hitmap database to open read-only");
        return guarded(path, [&] {
            SQLite::Database file = open_sqlite_read_only(path, busy_timeout_ms);
            if (*existing == latest)
                return Database(path, std::move(file), latest);
            SQLite::Database copy = migrated_in_memory(file, path, migrations);
            copy.exec("PRAGMA foreign_keys = ON");
            return Database(path, std::move(copy), latest);
        });
    }

    if (!existing) {
        if (!options.create_if_missing)
            throw StoreIoError(path, "no hitmap database here and create_if_missing is off");
        create_empty_file(path);
    }
    return guarded(path, [&] {
        SQLite::Database db(path, SQLite::OPEN_READWRITE, busy_timeout_ms);
        // SQLite silently falls back to read-only for a file it may not write.
        if (sqlite3_db_readonly(db.getHandle(), "main") == 1)
            throw StoreIoError(path, "cannot write: permission denied (open it read-only)");
        const int version = migrate(db, path, migrations);
        db.exec("PRAGMA journal_mode = WAL");
        db.exec("PRAGMA foreign_keys = ON");
        // A large import writes hundreds of thousands of rows in one transaction; SQLite's
        // default 2 MiB page cache made it spill and re-read index pages. The cache grows only
        // as pages are used, so small runs do not pay for it.
        db.exec("PRAGMA cache_size = -65536");
        Database opened(path, std::move(db), version);
        // Tests open files at older versions, which lack the writer columns.
        if (version >= kWriterColumnsVersion)
            opened.mark_abandoned_runs();
        return opened;
    });
}

std::int64_t Database::upsert_machine(const MachineInfo& machine, const std::string& pmu_json) {
    const std::string pmu = canonical_json(pmu_json, "machine pmu_json");
    return guarded(path_, [&] {
        SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
        SQLite::Statement find(db_, "SELECT id FROM machine WHERE host = ? AND cpu_model IS ? "
                                    "AND cpu_count IS ? AND kernel = ? AND cacheline_size IS ? "
                                    "AND pmu_json = ?");
        bind_machine(find, machine, pmu);
        if (find.executeStep())
            return find.getColumn(0).getInt64();
        SQLite::Statement insert(
            db_, "INSERT INTO machine (host, cpu_model, cpu_count, kernel, "
                 "cacheline_size, pmu_json, first_seen) VALUES (?, ?, ?, ?, ?, ?, ?)");
        bind_machine(insert, machine, pmu);
        insert.bind(7, utc_now());
        insert.exec();
        const std::int64_t id = db_.getLastInsertRowid();
        tx.commit();
        return id;
    });
}

std::optional<MachineRecord> Database::machine(std::int64_t id) const {
    return guarded(path_, [&]() -> std::optional<MachineRecord> {
        SQLite::Statement q(db_, "SELECT id, host, cpu_model, cpu_count, kernel, cacheline_size, "
                                 "pmu_json, first_seen FROM machine WHERE id = ?");
        q.bind(1, id);
        if (!q.executeStep())
            return std::nullopt;
        return MachineRecord{.id = q.getColumn(0).getInt64(),
                             .info = {.host = q.getColumn(1).getString(),
                                      .cpu_model = optional_text(q.getColumn(2)),
                                      .cpu_count = optional_int(q.getColumn(3)),
                                      .kernel = q.getColumn(4).getString(),
                                      .cacheline_size = optional_int(q.getColumn(5))},
                             .pmu_json = q.getColumn(6).getString(),
                             .first_seen = q.getColumn(7).getString()};
    });
}

std::int64_t Database::begin_run(const RunRecord& run) {
    const std::string params = canonical_json(run.params_json, "run params_json");
    return guarded(path_, [&] { return insert_run(db_, run, params, RunStatus::running); });
}

void Database::finish_run(std::int64_t run_id, const RunOutcome& outcome,
                          const std::function<void(RunWriter&)>& extra) {
    if (outcome.status == RunStatus::running)
        throw std::invalid_argument("finish_run needs a final status, not 'running'");
    guarded(path_, [&] {
        SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
        write_outcome(db_, path_, run_id, outcome, [&] { return run(run_id); });
        if (extra) {
            RunWriter writer(*this, run_id);
            extra(writer);
        }
        tx.commit();
    });
}

std::int64_t Database::insert_finished_run(const RunRecord& run, const RunOutcome& outcome,
                                           const std::function<void(RunWriter&)>& extra) {
    if (outcome.status == RunStatus::running)
        throw std::invalid_argument("insert_finished_run needs a final status, not 'running'");
    const std::string params = canonical_json(run.params_json, "run params_json");
    return guarded(path_, [&] {
        std::optional<SQLite::Transaction> tx;
        if (sqlite3_get_autocommit(db_.getHandle()))
            tx.emplace(db_, SQLite::TransactionBehavior::IMMEDIATE);
        const std::int64_t id = insert_run(db_, run, params, RunStatus::running);
        write_outcome(db_, path_, id, outcome, [&] { return this->run(id); });
        if (extra) {
            RunWriter writer(*this, id);
            extra(writer);
        }
        if (tx)
            tx->commit();
        return id;
    });
}

void Database::transaction(const std::function<void()>& body) {
    guarded(path_, [&] {
        SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
        body();
        tx.commit();
    });
}

void Database::mark_abandoned_runs() {
    const auto abandoned = [&] {
        SQLite::Statement q(
            db_, fmt::format("SELECT {} FROM run WHERE status = 'running'", run_columns(version_)));
        std::vector<std::int64_t> ids;
        while (q.executeStep())
            if (read_run(q).status == RunStatus::abandoned)
                ids.push_back(q.getColumn(0).getInt64());
        return ids;
    };
    guarded(path_, [&] {
        // Most opens find nothing: only then take the write lock, and look again under it.
        if (abandoned().empty())
            return;
        SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
        SQLite::Statement update(
            db_, "UPDATE run SET status = 'abandoned', finished_at = ?, writer_pid = NULL, "
                 "writer_start = NULL, note = coalesce(note || '; ', '') || "
                 "'its process ended before the run was stored' WHERE id = ?");
        for (const std::int64_t id : abandoned()) {
            update.bind(1, utc_now());
            update.bind(2, id);
            update.exec();
            update.reset();
        }
        tx.commit();
    });
}

std::vector<RunRecord> Database::runs(const RunFilter& filter) const {
    std::string sql = fmt::format("SELECT {} FROM run WHERE 1", run_columns(version_));
    if (filter.workload)
        sql += " AND workload = :workload";
    if (filter.variant)
        sql += " AND variant = :variant";
    if (filter.status)
        sql += " AND status = :status";
    if (filter.ids)
        sql += " AND id IN (SELECT value FROM json_each(:ids))";
    if (filter.layout_ids)
        sql += " AND id IN (SELECT run_id FROM object WHERE layout_id IN (SELECT value FROM "
               "json_each(:layouts)))";
    sql += " ORDER BY id";
    return guarded(path_, [&] {
        SQLite::Statement q(db_, sql);
        if (filter.workload)
            q.bind(":workload", *filter.workload);
        if (filter.variant)
            q.bind(":variant", *filter.variant);
        if (filter.status)
            q.bind(":status", std::string(to_string(*filter.status)));
        if (filter.ids)
            q.bind(":ids", nlohmann::json(*filter.ids).dump());
        if (filter.layout_ids)
            q.bind(":layouts", nlohmann::json(*filter.layout_ids).dump());
        std::vector<RunRecord> found;
        while (q.executeStep())
            found.push_back(read_run(q));
        return found;
    });
}

std::optional<RunRecord> Database::run(std::int64_t id) const {
    return guarded(path_, [&]() -> std::optional<RunRecord> {
        SQLite::Statement q(db_,
                            fmt::format("SELECT {} FROM run WHERE id = ?", run_columns(version_)));
        q.bind(1, id);
        if (!q.executeStep())
            return std::nullopt;
        return read_run(q);
    });
}

std::optional<RunRecord> Database::latest_prediction(std::int64_t from, std::optional<int> threads,
                                                     std::int64_t layouts_of) const {
    // Layout rows are shapes, so the same rows are the same layouts.
    return guarded(path_, [&]() -> std::optional<RunRecord> {
        SQLite::Statement q(
            db_, fmt::format("SELECT {} FROM run WHERE predicted_from = ?1 AND threads IS ?2 AND "
                             "status = 'complete' AND NOT EXISTS (SELECT layout_id FROM object "
                             "WHERE run_id = run.id EXCEPT SELECT layout_id FROM object WHERE "
                             "run_id = ?3) AND NOT EXISTS (SELECT layout_id FROM object WHERE "
                             "run_id = ?3 EXCEPT SELECT layout_id FROM object WHERE run_id = "
                             "run.id) ORDER BY id DESC LIMIT 1",
                             run_columns(version_)));
        q.bind(1, from);
        if (threads)
            q.bind(2, *threads);
        else
            q.bind(2);
        q.bind(3, layouts_of);
        if (!q.executeStep())
            return std::nullopt;
        return read_run(q);
    });
}

std::vector<Metric> Database::metrics(std::int64_t run_id) const {
    return guarded(path_, [&] {
        SQLite::Statement q(db_, "SELECT name, value, unit, available, reason, source, scaled "
                                 "FROM run_metric WHERE run_id = ? ORDER BY name");
        q.bind(1, run_id);
        std::vector<Metric> found;
        while (q.executeStep())
            found.push_back({.name = q.getColumn(0).getString(),
                             .value = optional_double(q.getColumn(1)),
                             .unit = q.getColumn(2).getString(),
                             .available = q.getColumn(3).getInt() != 0,
                             .reason = optional_text(q.getColumn(4)),
                             .source = parse_source(q.getColumn(5).getString()),
                             .scaled = q.getColumn(6).isNull()
                                           ? std::nullopt
                                           : std::optional(q.getColumn(6).getInt() != 0)});
        return found;
    });
}

} // namespace hitmap::store
