-- Software c2c: the objects a run probed, their layouts, the coherence replay's counts per
-- line / field / CPU / field pair, and where the run's probe trace is kept.
-- Counts use the replay's classes: l1_hit, load_hitm, store_hitm (hitm = both),
-- clean_forward, store_shared (+ the invalidations it caused), cold; loads and stores
-- (RMW and CAS count as stores); stall_cycles from the cost table.

-- A prediction (a stored trace replayed under another layout) is a run of its own with
-- c2c_source = 'predicted', pointing at the run whose trace it replayed.
ALTER TABLE run ADD COLUMN predicted_from INTEGER REFERENCES run (id) ON DELETE CASCADE;
CREATE INDEX run_by_predicted_from ON run (predicted_from);

CREATE TABLE layout (
    id        INTEGER PRIMARY KEY,
    struct    TEXT NOT NULL,
    version   TEXT NOT NULL,
    size      INTEGER NOT NULL CHECK (size > 0),
    align     INTEGER NOT NULL CHECK (align > 0),
    signature TEXT NOT NULL UNIQUE -- struct, size, align and every field's place: one row per shape
);

CREATE TABLE layout_field (
    layout_id INTEGER NOT NULL REFERENCES layout (id) ON DELETE CASCADE,
    field_id  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    offset    INTEGER NOT NULL CHECK (offset >= 0),
    size      INTEGER NOT NULL CHECK (size > 0),
    PRIMARY KEY (layout_id, field_id)
) WITHOUT ROWID;

CREATE TABLE object (
    run_id    INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    object_id INTEGER NOT NULL,
    name      TEXT NOT NULL,
    layout_id INTEGER NOT NULL REFERENCES layout (id),
    phase     INTEGER NOT NULL CHECK (phase >= 0 AND phase < 64),
    PRIMARY KEY (run_id, object_id)
) WITHOUT ROWID;

CREATE TABLE cacheline (
    run_id        INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    line_id       INTEGER NOT NULL,
    object_id     INTEGER NOT NULL,
    line_index    INTEGER NOT NULL,
    address       INTEGER NOT NULL,
    l1_hit        INTEGER NOT NULL, load_hitm INTEGER NOT NULL, store_hitm INTEGER NOT NULL,
    clean_forward INTEGER NOT NULL, store_shared INTEGER NOT NULL, cold INTEGER NOT NULL,
    invalidations INTEGER NOT NULL, loads INTEGER NOT NULL, stores INTEGER NOT NULL,
    stall_cycles  REAL NOT NULL,
    PRIMARY KEY (run_id, line_id)
) WITHOUT ROWID;

CREATE TABLE line_field (
    run_id        INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    line_id       INTEGER NOT NULL,
    offset        INTEGER NOT NULL,
    size          INTEGER NOT NULL,
    field_id      INTEGER NOT NULL,
    field         TEXT NOT NULL,
    l1_hit        INTEGER NOT NULL, load_hitm INTEGER NOT NULL, store_hitm INTEGER NOT NULL,
    clean_forward INTEGER NOT NULL, store_shared INTEGER NOT NULL, cold INTEGER NOT NULL,
    invalidations INTEGER NOT NULL, loads INTEGER NOT NULL, stores INTEGER NOT NULL,
    stall_cycles  REAL NOT NULL,
    PRIMARY KEY (run_id, line_id, offset, field_id, size)
) WITHOUT ROWID;

CREATE TABLE line_cpu (
    run_id        INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    line_id       INTEGER NOT NULL,
    cpu           INTEGER NOT NULL,
    l1_hit        INTEGER NOT NULL, load_hitm INTEGER NOT NULL, store_hitm INTEGER NOT NULL,
    clean_forward INTEGER NOT NULL, store_shared INTEGER NOT NULL, cold INTEGER NOT NULL,
    invalidations INTEGER NOT NULL, loads INTEGER NOT NULL, stores INTEGER NOT NULL,
    stall_cycles  REAL NOT NULL,
    PRIMARY KEY (run_id, line_id, cpu)
) WITHOUT ROWID;

-- Which field hurts which: accessor vs the last writer of the line (NULL: never written).
CREATE TABLE field_pair (
    run_id            INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    line_id           INTEGER NOT NULL,
    accessor_field_id INTEGER NOT NULL,
    accessor          TEXT NOT NULL,
    writer_field_id   INTEGER,
    writer            TEXT NOT NULL,
    true_sharing      INTEGER NOT NULL CHECK (true_sharing IN (0, 1)),
    load_hitm         INTEGER NOT NULL,
    store_hitm        INTEGER NOT NULL,
    store_shared      INTEGER NOT NULL,
    invalidations     INTEGER NOT NULL
);
CREATE INDEX field_pair_by_run ON field_pair (run_id, line_id);

-- The compact probe trace, kept beside the database so a run can be replayed again.
CREATE TABLE run_trace (
    run_id          INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
    path            TEXT,            -- relative to the database's folder; NULL if not kept
    format          TEXT NOT NULL,
    threads         INTEGER NOT NULL,
    records         INTEGER NOT NULL,
    traced_ops      INTEGER NOT NULL,
    dropped_records INTEGER NOT NULL,
    cpu_migrations  INTEGER NOT NULL,
    bytes           INTEGER,         -- size of the file
    model_cpus      TEXT NOT NULL,
    line_size       INTEGER NOT NULL
);
