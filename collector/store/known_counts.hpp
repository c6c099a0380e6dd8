#pragma once
// Which counts a run's c2c source measured. A replay, a simulation and a prediction count
// every access, so they know every class. A PMU's samples and a perf c2c report cannot give
// some: store HITMs and stores to shared lines (Intel's and AMD's store samples carry no snoop
// result, Arm SPE's stores no cache level), the copies those stores invalidated, and for a
// report its cycles (perf prints only mean load latencies) and the trace's own counters. Those
// are unknown, shown "–" and null, never 0 (stored in run_trace.unknown_counts,
// schemas/migrations/0011_unknown_counts.sql).
#include "collector/c2c/replay_result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hitmap::store {

// One flag per count a source may lack; the names are run_trace.unknown_counts' items.
struct KnownCounts {
    bool store_hitm = true;    // c2c::ClassCounts::store_hitm
    bool store_shared = true;  // c2c::ClassCounts::store_shared
    bool invalidations = true; // c2c::ClassCounts::invalidations
    bool stall_cycles = true;  // c2c::ClassCounts::stall_cycles, the estimated cycles
    bool traced_ops = true;    // TraceInfo::traced_ops, the per-1k denominator
    bool dropped_records = true;
    bool cpu_migrations = true;

    // Transfers add HITMs, clean forwards and stores to shared lines: without the store
    // classes, the known part would read as the whole, so the sum is unknown.
    bool transfers() const { return store_hitm && store_shared; }
    // A transfer count (ClassCounts::transfers, or a sum of them) as far as it is known.
    std::optional<std::uint64_t> transfers_if_known(std::uint64_t sum) const {
        return transfers() ? std::optional(sum) : std::nullopt;
    }

    // No count but the classes every source gives (a perf c2c report of a run not ours).
    static constexpr KnownCounts none() {
        return {.store_hitm = false,
                .store_shared = false,
                .invalidations = false,
                .stall_cycles = false,
                .traced_ops = false,
                .dropped_records = false,
                .cpu_migrations = false};
    }

    bool operator==(const KnownCounts&) const = default;
};

// "store_hitm,store_shared": the unknown counts, as run_trace.unknown_counts stores them;
// empty when every count is known (stored as NULL).
std::string unknown_names(const KnownCounts& known);
// The inverse; throws std::runtime_error naming an item it does not know.
KnownCounts known_from_unknown_names(std::string_view names);

// A run's ClassCounts as every report, export and view shows them: what the source could not
// measure is nullopt, and so is every sum over it.
struct ShownCounts {
    std::uint64_t l1_hit = 0, load_hitm = 0, clean_forward = 0, cold = 0, loads = 0, stores = 0;
    std::optional<std::uint64_t> store_hitm, store_shared, invalidations;
    // Load + store HITMs. Without store HITMs this is perf c2c's own "Tot Hitm", which counts
    // load HITMs only (perf's definition), so it stays a number.
    std::uint64_t hitm = 0;
    std::optional<std::uint64_t> transfers; // KnownCounts::transfers()
    std::optional<double> stall_cycles;
};

ShownCounts shown_counts(const c2c::ClassCounts& counts, const KnownCounts& known);

} // namespace hitmap::store
