-- Provenance and unknown values (issue 9). Every run and metric says where its numbers came
-- from; what a source did not say is NULL, never a placeholder; a run whose writer died is
-- told apart from one still running.
--
-- run.source: where the run's throughput (ops, ops_per_s, duration) came from:
--   measured  — this machine, probes not recording;
--   traced    — this machine while probes recorded (slower than measured);
--   simulated — the simulated machine (virtual time);
--   predicted — a stored trace replayed under another layout (no throughput of its own);
--   imported  — text captured elsewhere (no throughput).
-- run.c2c_source keeps where the cacheline tables came from ('software' = replayed from the
-- run's own trace, 'predicted'), and run.c2c_reason why that source was chosen or why there is
-- none ("--c2c off", "no probed objects", "auto: software, no precise memory sampling ...").
--
-- SQLite cannot relax NOT NULL or CHECK constraints in place, so run and machine are rebuilt
-- (migrations run with foreign keys off; the migrator checks foreign keys before committing).

CREATE TABLE machine_new (
    id             INTEGER PRIMARY KEY,
    host           TEXT NOT NULL,
    cpu_model      TEXT,
    cpu_count      INTEGER CHECK (cpu_count > 0),      -- NULL: unknown (imported text)
    kernel         TEXT NOT NULL,
    cacheline_size INTEGER CHECK (cacheline_size > 0), -- NULL: unknown (imported text)
    pmu_json       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(pmu_json)),
    first_seen     TEXT NOT NULL
);
INSERT INTO machine_new (id, host, cpu_model, cpu_count, kernel, cacheline_size, pmu_json,
                         first_seen)
SELECT id, host, cpu_model,
       CASE WHEN host = 'unknown (imported)' THEN NULL ELSE cpu_count END,
       kernel,
       CASE WHEN host = 'unknown (imported)' THEN NULL ELSE cacheline_size END,
       pmu_json, first_seen
FROM machine;
DROP TABLE machine;
ALTER TABLE machine_new RENAME TO machine;
CREATE INDEX machine_by_host ON machine (host);

CREATE TABLE run_new (
    id             INTEGER PRIMARY KEY,
    machine_id     INTEGER NOT NULL REFERENCES machine (id),
    workload       TEXT NOT NULL,
    variant        TEXT NOT NULL,
    params_json    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params_json)),
    source         TEXT NOT NULL
                   CHECK (source IN ('measured', 'traced', 'simulated', 'predicted', 'imported')),
    threads        INTEGER CHECK (threads > 0),    -- NULL: the source did not say
    duration_s     REAL CHECK (duration_s >= 0),   -- NULL: unknown (imports, predictions)
    ops            INTEGER CHECK (ops >= 0),
    ops_per_s      REAL,
    status         TEXT NOT NULL DEFAULT 'running'
                   CHECK (status IN ('running', 'complete', 'failed', 'cancelled', 'abandoned')),
    c2c_source     TEXT,
    c2c_reason     TEXT,
    started_at     TEXT NOT NULL,
    finished_at    TEXT,
    note           TEXT,
    predicted_from INTEGER REFERENCES run (id) ON DELETE CASCADE,
    -- The process writing a 'running' row (pid and its start time in clock ticks since boot,
    -- from /proc/PID/stat, so a reused pid is not mistaken for the writer), on machine_id's host.
    writer_pid     INTEGER,
    writer_start   INTEGER
);
INSERT INTO run_new (id, machine_id, workload, variant, params_json, source, threads, duration_s,
                     ops, ops_per_s, status, c2c_source, c2c_reason, started_at, finished_at,
                     note, predicted_from)
SELECT id, machine_id, workload, variant, params_json,
       CASE WHEN workload LIKE 'import:%' THEN 'imported'
            WHEN c2c_source = 'predicted' THEN 'predicted'
            WHEN c2c_source = 'software' THEN 'traced'
            ELSE 'measured' END,
       CASE WHEN workload LIKE 'import:%' THEN NULL ELSE threads END,
       CASE WHEN workload LIKE 'import:%' OR c2c_source = 'predicted' THEN NULL
            ELSE duration_s END,
       CASE WHEN c2c_source = 'predicted' THEN NULL ELSE ops END,
       CASE WHEN c2c_source = 'predicted' THEN NULL ELSE ops_per_s END,
       -- Runs stored as running before writers were recorded cannot be checked: their
       -- processes predate this schema, so they are gone.
       CASE WHEN status = 'running' THEN 'abandoned' ELSE status END,
       c2c_source, NULL, started_at, finished_at, note, predicted_from
FROM run;
DROP TABLE run;
ALTER TABLE run_new RENAME TO run;
CREATE INDEX run_by_workload ON run (workload, variant, started_at);
CREATE INDEX run_by_machine ON run (machine_id);
CREATE INDEX run_by_predicted_from ON run (predicted_from);

-- A metric's source, as the run's ('replayed' for the software c2c counts from a trace), and
-- whether a counter was multiplexed (value extrapolated from part of the run; NULL: not a
-- counter).
ALTER TABLE run_metric ADD COLUMN source TEXT NOT NULL DEFAULT 'measured'
    CHECK (source IN ('measured', 'traced', 'replayed', 'simulated', 'predicted', 'imported'));
ALTER TABLE run_metric ADD COLUMN scaled INTEGER CHECK (scaled IN (0, 1));
UPDATE run_metric SET source = CASE
    WHEN name LIKE 'c2c.%' THEN 'replayed'
    ELSE (SELECT source FROM run WHERE run.id = run_metric.run_id) END;

-- The cost table behind the estimated stall cycles of a replay (built-in name, or a file and
-- its hash). Traces stored before this column were all costed with the built-in table.
ALTER TABLE run_trace ADD COLUMN cost_table TEXT NOT NULL DEFAULT 'builtin:ccbench';
