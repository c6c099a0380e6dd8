-- Machines, runs and their scalar metrics. The schema version itself lives in
-- PRAGMA user_version (readable before any table); schema_version keeps the history.

CREATE TABLE schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
);

-- One row per distinct machine description; runs on the same box share it.
CREATE TABLE machine (
    id             INTEGER PRIMARY KEY,
    host           TEXT NOT NULL,
    cpu_model      TEXT,                 -- NULL where /proc/cpuinfo names no model
    cpu_count      INTEGER NOT NULL CHECK (cpu_count > 0),
    kernel         TEXT NOT NULL,
    cacheline_size INTEGER NOT NULL CHECK (cacheline_size > 0),
    pmu_json       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(pmu_json)),
    first_seen     TEXT NOT NULL
);
CREATE INDEX machine_by_host ON machine (host);

-- A run is inserted as 'running' and committed before the workload starts, so a crash
-- leaves it visible as incomplete; finishing it is one transaction.
CREATE TABLE run (
    id          INTEGER PRIMARY KEY,
    machine_id  INTEGER NOT NULL REFERENCES machine (id),
    workload    TEXT NOT NULL,
    variant     TEXT NOT NULL,
    params_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params_json)),
    threads     INTEGER NOT NULL CHECK (threads > 0),
    duration_s  REAL NOT NULL DEFAULT 0 CHECK (duration_s >= 0),
    ops         INTEGER CHECK (ops >= 0),
    ops_per_s   REAL,
    status      TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'complete', 'failed', 'cancelled')),
    c2c_source  TEXT,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    note        TEXT
);
-- Compare and the GUI list runs of one workload/variant, newest last.
CREATE INDEX run_by_workload ON run (workload, variant, started_at);
-- Foreign-key checks on machine deletes would otherwise scan every run.
CREATE INDEX run_by_machine ON run (machine_id);

-- A metric the source could not provide is kept with available = 0 and the reason,
-- so "not measured" is never confused with zero.
CREATE TABLE run_metric (
    run_id    INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    name      TEXT NOT NULL,
    value     REAL,
    unit      TEXT NOT NULL DEFAULT '',
    available INTEGER NOT NULL CHECK (available IN (0, 1)),
    reason    TEXT,
    PRIMARY KEY (run_id, name),
    CHECK (available = 1 OR value IS NULL)
) WITHOUT ROWID;
