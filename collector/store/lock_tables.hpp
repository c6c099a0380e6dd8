#pragma once
// The lock-statistics tables of a run (schemas/migrations/0004_locks.sql): written inside the
// run's finishing transaction (Database::finish_run's `extra`), read back for reports and the
// GUI. What was written reads back equal, absent values included.
#include "collector/locks/lock_stats.hpp"
#include "collector/locks/wait_histogram.hpp"

#include <SQLiteCpp/Database.h>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::store {

class Database;

// Where a table of lock statistics came from.
enum class LockSource {
    engine,    // the engine's instrumented locks, measured by this run
    kernel,    // /proc/lock_stat read around this run
    lockstat,  // imported /proc/lock_stat text
    perf_lock, // perf lock contention / report output: imported, or recorded by `record`
};

// The text stored in lock_table.source: "engine", "kernel", "lockstat", "perf-lock".
std::string_view to_string(LockSource source);

struct LockData {
    LockSource source = LockSource::engine;
    locks::LockStatReport report;
    // Log2 wait-time histograms by class name. A histogram without samples is not stored, so
    // it reads back as no entry.
    std::map<std::string, locks::WaitHistogram> histograms;

    bool operator==(const LockData&) const = default;
};

// A count, counter or histogram bucket above SQLite's signed 64-bit range. Thrown before the
// offending row is written; inside finish_run the whole transaction is then dropped.
class LockValueOutOfRange : public std::out_of_range {
public:
    using std::out_of_range::out_of_range;
};

// Appends one table to the run's lock tables (after the ones it already has).
void write_lock_tables(SQLite::Database& sql, std::int64_t run_id, const LockData& data);

// write_lock_tables a class at a time, for a table too large to hold (an imported perf lock
// file): the table row is written first from `table`'s fields (its classes are ignored), then
// each class as it comes, then finish() updates the fields known only at the end (excerpt,
// notes). Use it inside one transaction, as write_lock_tables.
class LockTableWriter {
public:
    LockTableWriter(SQLite::Database& sql, std::int64_t run_id, LockSource source,
                    const locks::LockStatReport& table);

    void add_class(const locks::LockClassStats& stats);
    void finish(const locks::LockStatReport& table);
    std::int64_t table_id() const { return table_id_; }

private:
    SQLite::Database& sql_;
    std::int64_t run_id_;
    std::int64_t table_id_;
    SQLite::Statement classes_;
    SQLite::Statement points_;
    std::int64_t next_position_ = 0;
};

// A run's table without its classes, and its row id for for_each_lock_class.
struct StoredLockTable {
    std::int64_t id = 0;
    LockData data; // data.report.classes is empty
};
std::vector<StoredLockTable> read_lock_table_headers(Database& db, std::int64_t run_id);
enum class LockClassOrder {
    written,
    // total_contentions() descending, ties in the order written: lock_stat's (and its
    // printer's) order. Sums above 2^53 are compared as doubles.
    by_contentions,
};
// The table's classes one at a time, so that a large table is never held.
void for_each_lock_class(Database& db, std::int64_t table_id,
                         const std::function<void(const locks::LockClassStats&)>& visit,
                         LockClassOrder order = LockClassOrder::written);
// The run's tables in the order written; empty when the run has none. A stored value that no
// longer decodes throws CorruptDatabase.
std::vector<LockData> read_lock_tables(Database& db, std::int64_t run_id);

} // namespace hitmap::store
