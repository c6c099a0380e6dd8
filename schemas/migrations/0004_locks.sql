-- Lock statistics of a run (collector/store/lock_tables.hpp): lock_stat-shaped tables from the
-- engine's instrumented locks, the kernel's /proc/lock_stat, or imported lock_stat / perf lock
-- text. Every counter a source does not provide is NULL, never a zero.

-- One table of a run: a lock_stat snapshot or one perf lock output, with what the parser
-- noticed about it. A run may hold several (one per source, or an imported mail's tables).
CREATE TABLE lock_table (
    id               INTEGER PRIMARY KEY,
    run_id           INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    position         INTEGER NOT NULL CHECK (position >= 0), -- order within the run
    source           TEXT NOT NULL CHECK (source IN ('engine', 'kernel', 'lockstat', 'perf-lock')),
    format           TEXT NOT NULL CHECK (format IN ('lockstat_v03', 'lockstat_v04',
                         'perf_lock_contention', 'perf_lock_contention_csv', 'perf_lock_report',
                         'unknown')),
    version          TEXT NOT NULL DEFAULT '', -- lock_stat's "0.3"/"0.4"; empty for perf
    caption          TEXT,                     -- the prose line above the table, if any
    has_header       INTEGER NOT NULL CHECK (has_header IN (0, 1)),
    lockdep_disabled INTEGER NOT NULL CHECK (lockdep_disabled IN (0, 1)),
    excerpt          INTEGER NOT NULL CHECK (excerpt IN (0, 1)),
    -- Values the parser did not take at face value, one "line N: ..." string each.
    notes_json       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(notes_json)
                         AND json_type(notes_json) = 'array'),
    UNIQUE (run_id, position)
);

-- One row per class and side. A class repeats its identity on its write and read rows; a class
-- with neither side (listed without statistics) has one row with side NULL and no counters.
-- Addresses are lower-case hex text: kernel addresses do not fit SQLite's signed integers.
CREATE TABLE lock_class_stat (
    table_id       INTEGER NOT NULL REFERENCES lock_table (id) ON DELETE CASCADE,
    run_id         INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    class_position INTEGER NOT NULL CHECK (class_position >= 0), -- order in the source
    name           TEXT NOT NULL,
    name_version   INTEGER CHECK (name_version >= 0),
    subclass       INTEGER CHECK (subclass >= 0),
    key            TEXT NOT NULL CHECK (key IN ('lock_class', 'lock_name', 'caller', 'task',
                       'lock_address', 'cgroup')),
    class_format   TEXT NOT NULL, -- the text format this class was read from ('unknown': engine)
    lock_type      TEXT,
    pid            INTEGER,
    lock_address   TEXT CHECK (lock_address GLOB '0x[0-9a-f]*'),
    side           TEXT CHECK (side IN ('write', 'read')),
    con_bounces    INTEGER CHECK (con_bounces >= 0),
    contentions    INTEGER CHECK (contentions >= 0),
    wait_min_ns    INTEGER,
    wait_max_ns    INTEGER,
    wait_total_ns  INTEGER,
    wait_avg_ns    INTEGER,
    acq_bounces    INTEGER CHECK (acq_bounces >= 0),
    acquisitions   INTEGER CHECK (acquisitions >= 0),
    hold_min_ns    INTEGER,
    hold_max_ns    INTEGER,
    hold_total_ns  INTEGER,
    hold_avg_ns    INTEGER,
    UNIQUE (table_id, class_position, side),
    CHECK (side IS NOT NULL OR coalesce(con_bounces, contentions, wait_min_ns, wait_max_ns,
           wait_total_ns, wait_avg_ns, acq_bounces, acquisitions, hold_min_ns, hold_max_ns,
           hold_total_ns, hold_avg_ns) IS NULL)
);
CREATE INDEX lock_class_stat_by_run ON lock_class_stat (run_id, name);

-- lock_stat's contention / contending points (first four sites each) and perf -v stack frames
-- of the class at class_position. A frame has an address but no count; a point's address is
-- NULL when the kernel hid the pointer.
CREATE TABLE lock_point (
    table_id       INTEGER NOT NULL REFERENCES lock_table (id) ON DELETE CASCADE,
    class_position INTEGER NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('contention', 'contending', 'stack')),
    position       INTEGER NOT NULL CHECK (position >= 0),
    count          INTEGER CHECK (count >= 0),
    address        TEXT CHECK (address GLOB '0x[0-9a-f]*'),
    symbol         TEXT NOT NULL,
    PRIMARY KEY (table_id, class_position, kind, position),
    CHECK ((kind = 'stack') = (count IS NULL)),
    CHECK (kind <> 'stack' OR address IS NOT NULL)
) WITHOUT ROWID;

-- Log2 wait-time histograms (instrumented locks only): bucket log2 counts waits in
-- [2^log2, 2^(log2+1)) ns. Only non-empty buckets are stored.
CREATE TABLE lock_wait_hist (
    table_id   INTEGER NOT NULL REFERENCES lock_table (id) ON DELETE CASCADE,
    class_name TEXT NOT NULL,
    log2       INTEGER NOT NULL CHECK (log2 BETWEEN 0 AND 63),
    count      INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (table_id, class_name, log2)
) WITHOUT ROWID;
