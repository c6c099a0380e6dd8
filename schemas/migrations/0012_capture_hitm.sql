-- Every HITM a capture counted, on the lines it printed or not (perf c2c's "Load Local HITM" +
-- "Load Remote HITM"): the denominator of perf c2c's own percentages, by which a capture without
-- an operation count puts its lines and fields in proportion (collector/report/rate.hpp). NULL
-- where the source captured no such total (a trace of ours, a simulation, PMU samples).
ALTER TABLE run_trace ADD COLUMN capture_hitm INTEGER;

-- Imports stored before: their printed lines' HITMs plus the HITMs perf left off its table,
-- which the import stored as a metric.
UPDATE run_trace
SET capture_hitm =
    (SELECT COALESCE(SUM(c.load_hitm), 0) FROM cacheline c WHERE c.run_id = run_trace.run_id) +
    COALESCE((SELECT m.value FROM run_metric m
              WHERE m.run_id = run_trace.run_id AND m.name = 'perf_c2c.hitm_not_shown'), 0)
WHERE format = 'perf-c2c-report';
