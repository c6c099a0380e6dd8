#pragma once
// The upstream investigation a workload replays, as `hitmap-collect reproduce` prints it: the
// seed's own tables, each row with the seed's figures and the runs that give ours. Plain data,
// written beside each workload's other metadata (engine/workloads/*.cpp); the collector plans
// the runs, reads them back from the store and prints the tables (collector/reproduce/).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::engine {

// What one column of a table is, read from a stored run.
enum class FigureKind {
    ops_per_s,   // the run's operations per second, times `scale`
    seconds_for, // the time `scale` operations take at the run's rate
    metric,      // the run metric `name` (its value, times `scale`)
    lock_field,  // column `name` of lock class `lock`: lock_stat's names ("contentions", ...)
    lock_site,   // contentions of lock class `lock` at the call site whose function is `name`
    seed_only,   // a figure the seed gives and the engine does not model: ours is unknown
};

struct FigureSpec {
    std::string column{}; // as the seed heads it, e.g. "real", "kops/s", "contentions"
    FigureKind kind = FigureKind::ops_per_s;
    double scale = 1;
    std::string name{};
    std::string lock{};
    std::string unit{};      // of our figure, e.g. "s", "ops/s"
    std::string seed_unit{}; // of the seed's, when it measured something else (e.g. "Mbps")
    // The seed's value and ours count the same thing, so the scorecard compares them; false
    // where only the change compares (another benchmark's counts). A seed_unit implies false.
    bool compared = true;
};

// How one row's run is made. Sizes are per thread; `quick` ones for `reproduce --quick`.
struct RowRun {
    std::string workload{}; // empty: the investigation's own workload
    std::string variant{};
    nlohmann::json params = nlohmann::json::object();
    unsigned threads = 0; // 0: every CPU this machine allows (measured), the seed's (simulated)
    // Operations per thread, or (simulated rows) virtual time; one of the two.
    std::uint64_t iterations = 0;
    std::uint64_t quick_iterations = 0;
    std::uint64_t duration_us = 0;
    std::uint64_t quick_duration_us = 0;
};

struct SeedRow {
    std::string label{};
    std::vector<std::optional<double>> seed{}; // per figure; nullopt where the seed gives none
    std::optional<RowRun> measured{};          // real threads on this machine
    std::optional<RowRun> simulated{};         // the table's simulated machine
    std::optional<unsigned> baseline{};        // the row its change is against, if not the table's
    std::optional<double> seed_change{};       // the change the seed states, where it gives no base
};

// Which stored data names the result's cause.
enum class CauseKind {
    hottest_line, // the run's line with the most transfers per operation, and its fields
    top_lock,     // the lock class with the most contentions, and where they were
    metrics,      // the named metrics of the run (e.g. misses per read)
    field_line,   // the line holding field `field`: its fields and their transfers
};

struct CauseSpec {
    CauseKind kind = CauseKind::hottest_line;
    std::vector<unsigned> rows{};       // the rows whose runs name it (before, after)
    std::vector<std::string> metrics{}; // CauseKind::metrics
    std::string field{};                // CauseKind::field_line
};

enum class ChangeStyle { none, ratio, percent };

// A figure the scorecard derives from two of one row's figures: numerator / denominator (a
// share of acquisitions, a split between two call sites).
struct FigureRatio {
    std::string label{};
    unsigned row = 0;
    unsigned numerator = 0;
    unsigned denominator = 0;
};

// A free parameter of the model that was set from seed figures: those figures are *anchored* in
// the scorecard, not predictions, and each names the parameter.
struct Anchor {
    enum class Kind {
        // The simulated machine's native speed: every calibrated segment of the investigation's
        // simulated rows is scaled so that this row's figure 0 is the seed's (reproduce does
        // it, from a run of the row at this host's speed).
        native_scale,
        // A workload parameter chosen with this figure (the row's change) in view.
        parameter,
    };
    Kind kind = Kind::parameter;
    std::string parameter{}; // as the scorecard names it
    std::string how{};       // one line: what it was set from
    unsigned table = 0;
    unsigned row = 0;
    bool change = false; // the row's change is anchored (else its figure `figure`)
    unsigned figure = 0;
};
struct SeedTable {
    std::string title{};
    std::vector<FigureSpec> figures{};
    std::vector<SeedRow> rows{};
    // The change of figure 0 against row `baseline`, as the seed states it: ratio is how many
    // times better (faster, or fewer), percent the relative change.
    ChangeStyle change = ChangeStyle::none;
    unsigned baseline = 0;
    bool lower_is_better = false; // figure 0 is a time or a count
    std::string machine{};        // the simulated rows' machine (collector/sim/)
    CauseSpec cause;
    bool lock_stat = false;            // print the rows as lock_stat 0.3 lines
    std::string note{};                // how the sizes relate to the seed's
    std::vector<FigureRatio> ratios{}; // further figures the scorecard compares
};

struct Investigation {
    std::string id{};     // e.g. "yosry-2023": `reproduce ID`
    std::string title{};  // the seed's subject line
    std::string source{}; // who measured what, where
    std::vector<SeedTable> tables{};
    std::vector<Anchor> anchors{}; // at most one of kind native_scale
};

} // namespace hitmap::engine
