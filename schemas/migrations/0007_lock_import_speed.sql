-- Faster bulk imports of lock statistics (a 600,000-row perf lock file), same rows and rules.
--
-- A CHECK (x IN ('a', 'b', 'c')) makes SQLite build a temporary B-tree of the list each time
-- the INSERT statement runs, that is once per row: a third of an import's time went to opening
-- and freeing it. The two row tables are rebuilt with the same constraints written as
-- comparisons. lock_class_stat_by_run goes: nothing looks rows up by run and name (they are
-- read by table), and it was a quarter of such an import's file.

CREATE TABLE lock_class_stat_new (
    table_id       INTEGER NOT NULL REFERENCES lock_table (id) ON DELETE CASCADE,
    run_id         INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    class_position INTEGER NOT NULL CHECK (class_position >= 0), -- order in the source
    name           TEXT NOT NULL,
    name_version   INTEGER CHECK (name_version >= 0),
    subclass       INTEGER CHECK (subclass >= 0),
    key            TEXT NOT NULL CHECK (key = 'lock_class' OR key = 'lock_name' OR
                       key = 'caller' OR key = 'task' OR key = 'lock_address' OR
                       key = 'cgroup'),
    class_format   TEXT NOT NULL, -- the text format this class was read from ('unknown': engine)
    lock_type      TEXT,
    pid            INTEGER,
    lock_address   TEXT CHECK (lock_address GLOB '0x[0-9a-f]*'),
    side           TEXT CHECK (side = 'write' OR side = 'read'),
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
INSERT INTO lock_class_stat_new SELECT * FROM lock_class_stat ORDER BY rowid;
DROP TABLE lock_class_stat;
ALTER TABLE lock_class_stat_new RENAME TO lock_class_stat;

CREATE TABLE lock_point_new (
    table_id       INTEGER NOT NULL REFERENCES lock_table (id) ON DELETE CASCADE,
    class_position INTEGER NOT NULL,
    kind           TEXT NOT NULL CHECK (kind = 'contention' OR kind = 'contending' OR
                       kind = 'stack'),
    position       INTEGER NOT NULL CHECK (position >= 0),
    count          INTEGER CHECK (count >= 0),
    address        TEXT CHECK (address GLOB '0x[0-9a-f]*'),
    symbol         TEXT NOT NULL,
    PRIMARY KEY (table_id, class_position, kind, position),
    CHECK ((kind = 'stack') = (count IS NULL)),
    CHECK (kind <> 'stack' OR address IS NOT NULL)
) WITHOUT ROWID;
INSERT INTO lock_point_new SELECT * FROM lock_point;
DROP TABLE lock_point;
ALTER TABLE lock_point_new RENAME TO lock_point;
