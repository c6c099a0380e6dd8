-- Counts a run's c2c source could not measure (collector/store/known_counts.hpp): their names,
-- comma-separated; NULL when every count was measured (a replay, a simulation, a prediction).
-- Unknown is not 0: these used to be stored as 0 and every report showed them as measured zeros.
ALTER TABLE run_trace ADD COLUMN unknown_counts TEXT;

-- The runs stored before know the same as the sources that write them now. Told apart by the
-- trace format each source has always written ('perf-c2c-report', 'perf-samples:<facility>';
-- the clock, 'sampled' for all three, does not separate them) and by run.c2c_source.
--
-- `import perf-c2c`: perf's text has no store HITMs, stores to shared lines, invalidations or
-- cycles, and no trace of ours to count operations, drops or migrations.
UPDATE run_trace
SET unknown_counts =
    'store_hitm,store_shared,invalidations,stall_cycles,traced_ops,dropped_records,cpu_migrations'
WHERE format = 'perf-c2c-report'
  AND run_id NOT IN (SELECT id FROM run WHERE c2c_source IS 'perf');
-- `run --c2c perf`: the same report, around a run that counted its own operations.
UPDATE run_trace
SET unknown_counts = 'store_hitm,store_shared,invalidations,stall_cycles,dropped_records,cpu_migrations'
WHERE format = 'perf-c2c-report'
  AND run_id IN (SELECT id FROM run WHERE c2c_source IS 'perf');
-- `run --c2c hardware`: store samples carry no snoop result; the cycles are the loads' measured
-- latencies and the drops the samples lost, both known; no one counts migrations.
UPDATE run_trace
SET unknown_counts = 'store_hitm,store_shared,invalidations,cpu_migrations'
WHERE format GLOB 'perf-samples:*';
