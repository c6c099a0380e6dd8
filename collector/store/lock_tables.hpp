#pragma once
// The lock-statistics tables of a run (schemas/migrations/0004_locks.sql): written inside the
// run's finishing transaction (run_writer.hpp), read back for reports and the
// GUI. What was written reads back equal, absent values included.
#include "collector/locks/lock_stats.hpp"
#include "collector/locks/wait_histogram.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
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

// One lock table written a class at a time (RunWriter::begin_lock_table): the table row is
// written first from `table`'s fields (its classes are ignored), then each class as it comes,
// then finish() updates the fields known only at the end (excerpt, notes).
class LockTableWriter {
public:
    LockTableWriter(LockTableWriter&&) noexcept;
    LockTableWriter& operator=(LockTableWriter&&) noexcept;
    ~LockTableWriter();

    void add_class(const locks::LockClassStats& stats);
    void finish(const locks::LockStatReport& table);

private:
    friend class RunWriter;
    // The table's id and its prepared inserts (lock_tables.cpp).
    struct Rows;
    LockTableWriter(Database& db, std::int64_t run_id, LockSource source,
                    const locks::LockStatReport& table);

    std::unique_ptr<Rows> rows_;
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
