#pragma once
// An investigation's tables as reproduced: the seed's figures, ours from the stored runs of each
// row (measured on this machine, simulated on the seed's), the change each states against its
// baseline row, and the cause the runs' cacheline, lock or metric data name. Plain values, read
// from the store once the runs are done; formatted by reproduction_format.hpp.
#include "collector/reproduce/reproduce_plan.hpp"
#include "collector/store/database.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::collector {

// Our figures of one row from one source, and the runs they came from.
struct RowFigures {
    std::int64_t run_id = 0; // the first run
    unsigned threads = 0;
    std::vector<std::optional<double>>
        values;                   // per figure, the median of the runs; nullopt: unknown
    std::optional<double> change; // figure 0 against the baseline row
    unsigned runs = 1;
    // Per figure, the lowest and highest of the runs: real threads on a shared machine vary.
    std::vector<std::optional<std::pair<double, double>>> ranges;
};

struct ReproducedRow {
    std::string label;
    std::vector<std::optional<double>> seed;
    std::optional<double> seed_change;
    bool baseline = false; // the row the others' changes are against
    std::optional<RowFigures> measured, simulated;
};

// What one source's runs say is behind the result, one line per cause row.
struct CauseLine {
    std::string row;
    std::int64_t run_id = 0;
    std::string text;
};
struct Cause {
    std::string source; // "measured" (real threads) or "simulated"
    std::vector<CauseLine> lines;
};

struct ReproducedTable {
    engine::SeedTable spec; // title, figures, change style, machine, note
    std::vector<ReproducedRow> rows;
    std::vector<Cause> causes; // measured first, then simulated; empty when no run has the data
    // Simulated rows whose work was partly priced by thin calibration segments, one line each.
    std::vector<std::string> thin;
};

// The simulated machine's native speed, anchored to a seed's baseline (engine::Anchor).
struct NativeScale {
    double factor = 1; // every calibrated segment's time is multiplied by it
    std::string parameter, how, row;
    double seed = 0;     // the anchor row's figure 0, the seed's
    double unscaled = 0; // ours at this host's native speed
    std::int64_t run_id = 0;
};

struct Reproduction {
    std::string id, title, source;
    bool quick = false;
    bool simulated = false;
    std::string calibrations; // where the simulated rows' calibrations came from
    std::optional<NativeScale> native_scale;
    std::vector<ReproducedTable> tables;
    std::vector<engine::Anchor> anchors;
};

// The native scale from the anchor row's unscaled run; nullopt without one (or without its
// figure, which leaves the scale at 1).
std::optional<NativeScale> read_native_scale(store::Database& db,
                                             const engine::Investigation& investigation,
                                             const ReproductionRuns& runs);

// Reads every figure and cause of the investigation's runs from `db`.
Reproduction read_reproduction(store::Database& db, const engine::Investigation& investigation,
                               const ReproductionRuns& runs, const ReproduceOptions& options);

} // namespace hitmap::collector
