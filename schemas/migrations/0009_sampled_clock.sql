-- Hardware sampling runs (issue 15): the c2c counts are precise memory samples of the PMU
-- (`--c2c hardware`, or perf c2c's own records with `--c2c perf`), so run_trace.clock is
-- 'sampled': a sample stands for an access the PMU chose, not for every access in order.
-- SQLite cannot widen the clock CHECK in place: rebuilt, as 0008 did.
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
                    CHECK (clock IN ('access', 'operation', 'virtual', 'sampled')),
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
