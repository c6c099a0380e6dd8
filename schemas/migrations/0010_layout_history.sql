-- Layout history (issue 16): where each run's layouts came from, and a short name for every
-- layout, so that "this field moved lines between these two runs" is one query (`show --layout
-- HASH`, `layout diff STRUCT=run:ID STRUCT=run:ID`).
--
-- Where a layout came from (engine::Layout::origin: "built-in", "plugin", "file PATH", "BTF PATH
-- ..., xxh3-128 HASH") belongs to a run's use of it, not to the layout row: a row is one shape,
-- shared by every run whose objects had it, and the built-in v6.1 page_counter and a kernel's BTF
-- one can be the same row. The object row already is that use (run, object, layout), so the origin
-- goes there rather than into a table run_layout (run_id, layout_id, origin), which would repeat
-- object.layout_id and could disagree with it. A run's objects of one struct share a layout and so
-- an origin: the repetition is a few short strings per run. merge copies object's columns by name,
-- so origins follow their runs. Objects stored before this version keep NULL: unknown, shown "–".
ALTER TABLE object ADD COLUMN layout_origin TEXT;
-- The runs of one layout (`show --layout`, the compare view's prediction).
CREATE INDEX object_by_layout ON object (layout_id);

-- The layout's name a user types: the first 12 hex digits of the XXH3-64 of its signature.
-- SQLite has no hash function, so the store registers hitmap_layout_hash() on the connection
-- before it migrates (collector/store/layout_table.cpp, register_layout_hash): the function that
-- hashes the rows stored from now on hashes the rows stored before, and both agree by
-- construction. Not UNIQUE: 48 bits make a collision unlikely but not impossible, and one must not
-- make a run unstorable; a prefix naming two layouts is refused with both listed.
-- SQLite cannot add a NOT NULL column without a default: rebuilt, as 0008 rebuilt run_trace. The
-- ids stay, so object and layout_field keep pointing at their rows.
CREATE TABLE layout_new (
    id        INTEGER PRIMARY KEY,
    struct    TEXT NOT NULL,
    version   TEXT NOT NULL,
    size      INTEGER NOT NULL CHECK (size > 0),
    align     INTEGER NOT NULL CHECK (align > 0),
    signature TEXT NOT NULL UNIQUE,
    hash      TEXT NOT NULL CHECK (length(hash) = 12 AND hash NOT GLOB '*[^0-9a-f]*')
);
INSERT INTO layout_new (id, struct, version, size, align, signature, hash)
SELECT id, struct, version, size, align, signature, hitmap_layout_hash(signature) FROM layout;
DROP TABLE layout;
ALTER TABLE layout_new RENAME TO layout;
CREATE INDEX layout_by_hash ON layout (hash);
