#pragma once
// Regressions between two sets of runs, as `compare` and CI gates see them: each run's figures
// (ops/s, cacheline transfers per field and line, lock contentions and waits; for a capture
// without an operation count its HITMs as captured and their shares, its lock counts as
// captured), runs matched across databases by what they ran, the change of every figure with its
// spread over repeats, and the thresholds (`--fail-on 'ops:-5%,transfers:+20%'`,
// `hitm-share:+5pp`) a change must not pass.
#include "collector/store/database.hpp"
#include "collector/store/records.hpp"

#include <compare>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::analysis {

enum class RegressionKind {
    ops,         // run.ops_per_s (the run's own source)
    transfers,   // c2c transfers (HITM, clean forwards, shared stores) per 1,000 traced ops
    contentions, // engine lock contentions per 1,000 ops; an import's contentions as counted
    waits,       // engine lock wait time, ns per op; an import's total wait, ns
    hitm,        // a capture's HITM samples per line and field, as counted (no operation count)
    hitm_share,  // a capture's line or field HITMs as a share of all it captured, percent
};
std::string_view to_string(RegressionKind kind);

// One number of one run. `name` tells figures of a kind apart: "ops_per_s",
// "transfers[top/mid:memory.usage]", "transfers[top/mid line 3]", "contentions[counter->lock]",
// "hitm[0x602180 line 0]", "hitm-share[0x602180:+0x30]".
struct Figure {
    RegressionKind kind = RegressionKind::ops;
    std::string name;
    double value = 0;
    std::string unit;
};

// What runs are matched by across databases. `source` is the run's source, with the simulated
// machine for simulated runs ("simulated:xeon-2s-72"): numbers of different sources are never
// compared with each other.
struct RunKey {
    std::string workload, variant;
    std::optional<int> threads;
    std::string params_json, source;
    auto operator<=>(const RunKey&) const = default;
};
// "page-counter-charge v6.1, 2 threads, simulated:xeon-2s-72" (parameters left out).
std::string describe(const RunKey& key);

// "layout.mem_cgroup: \"v6.1\" -> \"v6.0\"" for each parameter whose value differs; a value over
// 80 characters reads "(7093 characters)".
std::vector<std::string> differing_params(const RunKey& before, const RunKey& after);

struct RunFigures {
    std::int64_t run_id = 0;
    RunKey key;
    store::Source source = store::Source::measured;
    std::vector<Figure> figures;
};

// The figures of one complete run. A figure the run has no data for is absent (no c2c, no
// engine locks, unknown ops), never zero. Kernel lock tables are left out: /proc/lock_stat
// counts the whole machine, not the run.
RunFigures read_run_figures(store::Database& db, const store::RunRecord& run);
// Every complete run that is measured, traced or simulated, oldest first. Predictions and
// imports are not matched across databases: an import's parameters name its file.
std::vector<RunFigures> read_database_figures(store::Database& db);

// One figure over the repeats of one side.
struct Sample {
    std::size_t n = 0;
    double mean = 0, min = 0, max = 0;
};
// The mean with 4 significant digits, or "–" for a side without the figure.
std::string sample_text(const std::optional<Sample>& s);

struct FigureChange {
    std::string group; // describe(key), or "run A → run B"
    RegressionKind kind = RegressionKind::ops;
    std::string name, unit;
    std::optional<store::Source> source; // of every run on both sides; nullopt: mixed
    std::optional<Sample> base, current; // nullopt: that side has no such figure
    // current.mean / base.mean - 1; nullopt when a side lacks the figure or base.mean is 0.
    std::optional<double> change;
    // current.mean - base.mean, what share gates compare; nullopt when a side lacks the figure.
    std::optional<double> difference;
    // Simulated on both sides: the same commit gives the same figures, so it is gated exactly.
    bool deterministic() const { return source == store::Source::simulated; }
};

struct Comparison {
    std::vector<FigureChange> changes;
    std::vector<std::string> only_in_base, only_in_current; // groups without a partner
};

// Two runs (or any two sets) compared as one group named `group`.
Comparison compare_runs(const std::vector<RunFigures>& base, const std::vector<RunFigures>& current,
                        const std::string& group);
// Runs grouped by RunKey on each side; groups present on both sides are compared.
Comparison compare_matched(const std::vector<RunFigures>& base,
                           const std::vector<RunFigures>& current);

// `ops:-5%`: a fall of 5 % or more in ops/s fails; `transfers:+20%`: a rise of 20 % or more.
// `simulated.ops:-1%` gates simulated figures only (exact), `measured.ops:-15%` measured ones
// (noisy). `hitm-share:+5pp`: a share that grows by 5 percentage points or more (shares are
// gated in points: a line going from 0.2 % to 0.3 % of the HITMs is +50 % and costs nothing).
struct Gate {
    std::optional<store::Source> source; // nullopt: figures of any source
    RegressionKind kind = RegressionKind::ops;
    double threshold = 0; // relative: -0.05, 0.2; in points for hitm_share: 5; never 0
};
class GateSyntaxError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};
// "ops:-5%,transfers:+20%,simulated.contentions:+20%,hitm-share:+5pp"; "wait" names waits.
// Throws GateSyntaxError naming the bad item.
std::vector<Gate> parse_gates(std::string_view spec);

// Figures below these on both sides are shown but not gated: a field touched a few times per
// million operations changes by large percentages without costing anything.
inline constexpr double kGateFloorPerThousand = 1.0; // transfers, contentions
inline constexpr double kGateFloorWaitNs = 1.0;      // waits, ns per op
// Counts as captured (HITM samples, an import's lock contentions): under 10 on both sides, one
// more or less is a 10 % change. Declared, not fitted.
inline constexpr double kGateFloorCounts = 10.0;
inline constexpr double kGateFloorWaitTotalNs = 1000.0; // an import's total wait: 1 µs
inline constexpr double kGateFloorSharePoints = 0.1;    // perf c2c hides lines under 0.1 % itself

struct Violation {
    std::size_t change = 0; // index into Comparison::changes
    Gate gate;
};
// Every change past a gate of its kind. A figure that is new on the current side (above the
// floor) passes every positive threshold.
std::vector<Violation> check_gates(const Comparison& comparison, const std::vector<Gate>& gates);

// The worst violation of each group and gate (a new figure counts as the worst), with how many
// figures of that group passed that gate: one line per problem rather than one per field.
struct ViolationSummary {
    Violation worst;
    std::size_t count = 0;
};
std::vector<ViolationSummary> summarize(const Comparison& comparison,
                                        const std::vector<Violation>& violations);

// The kernel test robot's line: "-10.3% regression of page-counter-charge v6.1, 2 threads,
// measured: ops_per_s 1.42e+07 -> 1.27e+07 ops/s (3 vs 3 runs; gate ops:-5%)".
std::string robot_line(const FigureChange& change, const Gate& gate);

// Groups whose measured figures rest on fewer than `repeats` runs on a side: their changes may
// be noise. Simulated groups are deterministic and never listed.
std::vector<std::string> noisy_groups(const Comparison& comparison, std::size_t repeats = 3);

} // namespace hitmap::analysis
