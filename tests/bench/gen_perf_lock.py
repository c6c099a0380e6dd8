#!/usr/bin/env python3
"""Writes a synthetic `perf lock contention` table of N rows, in the layout of the fixtures
../shared/fixtures/lockstat/perf-lock-contention-*.txt, for the import and report --locks
benchmarks in docs/BENCHMARKS.md. Deterministic: the same N gives the same bytes."""
import random
import sys

TYPES = ["spinlock", "rwsem:R", "rwsem:W", "mutex", "rwlock:W", "rtmutex"]
CALLERS = ["update_blocked_averages", "do_user_addr_fault", "_nohz_idle_balance",
           "do_anonymous_page", "pipe_read", "__handle_mm_fault", "tick_do_update_jiffies64"]


def time(ns):
    for unit, scale in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns} ns"


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 600_000
    rng = random.Random(9)
    out = sys.stdout
    out.write("# perf lock contention -a sleep 10\n")
    out.write("   contended   total wait     max wait     avg wait         type   caller\n\n")
    for i in range(rows):
        count = rng.randint(1, 5000)
        avg = rng.randint(50, 200_000)
        # The longest wait is at most all of them together: perf-lock refuses a row whose max
        # wait exceeds its total wait.
        peak = avg * rng.randint(1, min(8, count))
        caller = f"{CALLERS[i % len(CALLERS)]}_{i}+0x{rng.randint(1, 0xfff):x}"
        out.write(f"{count:>12} {time(count * avg):>12} {time(peak):>12} {time(avg):>12} "
                  f"{TYPES[i % len(TYPES)]:>12}   {caller}\n")


if __name__ == "__main__":
    main()
