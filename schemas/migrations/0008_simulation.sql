-- Simulated runs (issue 11): the workload ran as virtual CPUs on a described machine, in
-- virtual time. run.source is 'simulated' and run.c2c_source 'simulated'; the c2c tables are
-- the simulation's own counts, kept in the same tables as a replay's.
--
-- run_trace describes where a run's c2c counts came from. A simulated run has no trace file
-- (path NULL); its clock is 'virtual' (the simulation's time, in ns) and its cost_table names
-- the machine ('machine:NAME'). SQLite cannot widen the clock CHECK in place: rebuilt.
CREATE TABLE run_trace_new (
    run_id          INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
    path            TEXT,
    format          TEXT NOT NULL,
    threads         INTEGER NOT NULL,
    records         INTEGER NOT NULL,
    traced_ops      INTEGER NOT NULL,
    dropped_records INTEGER NOT NULL,
    cpu_migrations  INTEGER NOT NULL,
    bytes           INTEGER,
    model_cpus      TEXT NOT NULL,
    line_size       INTEGER NOT NULL,
    clock           TEXT NOT NULL DEFAULT 'access'
                    CHECK (clock = 'access' OR clock = 'operation' OR clock = 'virtual'),
    cost_table      TEXT NOT NULL DEFAULT 'builtin:ccbench',
    file_hash       TEXT CHECK (file_hash GLOB 'xxh3:*')
);
INSERT INTO run_trace_new (run_id, path, format, threads, records, traced_ops, dropped_records,
                           cpu_migrations, bytes, model_cpus, line_size, clock, cost_table,
                           file_hash)
SELECT run_id, path, format, threads, records, traced_ops, dropped_records, cpu_migrations, bytes,
       model_cpus, line_size, clock, cost_table, file_hash FROM run_trace;
DROP TABLE run_trace;
ALTER TABLE run_trace_new RENAME TO run_trace;

-- What a simulation is a function of, so it can be repeated and explained: the machine
-- description and the calibration as JSON (collector/sim/machine.hpp, calibration.hpp), and
-- where the virtual time went.
CREATE TABLE run_simulation (
    run_id           INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
    machine          TEXT NOT NULL,
    machine_json     TEXT NOT NULL CHECK (json_valid(machine_json)),
    calibration_json TEXT NOT NULL CHECK (json_valid(calibration_json)),
    stats_json       TEXT NOT NULL CHECK (json_valid(stats_json))
);
