#pragma once
// The tables a run adds to its row and metrics (cacheline data, lock statistics, what a
// simulation was a function of), written only inside the run's finishing transaction: a
// RunWriter exists only during Database::finish_run's and insert_finished_run's `extra`, bound to
// that run. Each write is defined beside its table's reader, which owns the table's SQL
// (c2c_tables.cpp, lock_tables.cpp, simulation_table.cpp).
#include "collector/store/c2c_tables.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/store/simulation_table.hpp"

#include <cstdint>

namespace hitmap::store {

class Database;

class RunWriter {
public:
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    std::int64_t run_id() const { return run_id_; }

    // The run's cacheline tables and trace row; once per run.
    void write(const C2cData& data);
    // What the simulated run was a function of; once per run.
    void write(const SimulationRecord& record);
    // Appends one table to the run's lock tables (after the ones it already has).
    void write(const LockData& data);
    // One lock table a class at a time, for a table too large to hold (an imported perf lock
    // file): see LockTableWriter.
    LockTableWriter begin_lock_table(LockSource source, const locks::LockStatReport& table);

private:
    friend class Database;
    RunWriter(Database& db, std::int64_t run_id)
        : db_(db)
        , run_id_(run_id) {}

    Database& db_;
    std::int64_t run_id_;
};

} // namespace hitmap::store
