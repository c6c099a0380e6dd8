-- Trace files are checked before they are replayed (collector/trace/trace_file.hpp): the run
-- stores the file's XXH3 hash beside its size and record count. Paths become names relative
-- to the database's own trace folder ("run-7.trace.zst" in "<db>.traces/"), so a database
-- copied or renamed together with its trace folder still finds its traces; they used to
-- include the folder ("g.db.traces/run-7.trace.zst"), which named the original file.
ALTER TABLE run_trace ADD COLUMN file_hash TEXT CHECK (file_hash GLOB 'xxh3:*');
UPDATE run_trace SET path = substr(path, instr(path, '/') + 1)
WHERE path IS NOT NULL AND instr(path, '.traces/') > 0;
