-- How a software-c2c trace was timestamped (engine/probe/trace_buffer.hpp, TraceClock):
-- 'access' = an rdtsc per shared-object record; 'operation' = one rdtsc per operation that
-- touched a shared object, the records between two reads spread evenly over the interval.
-- Traces stored before this column existed were all timed per access.
ALTER TABLE run_trace ADD COLUMN clock TEXT NOT NULL DEFAULT 'access'
    CHECK (clock IN ('access', 'operation'));
