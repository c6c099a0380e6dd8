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

// Our figures of one row from one source, and the run they came from.
struct RowFigures {
    std::int64_t run_id = 0;
    unsigned threads = 0;
    std::vector<std::optional<double>> values; // per figure; nullopt: unknown
    std::optional<double> change;              // figure 0 against the baseline row
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
};

struct Reproduction {
    std::string id, title, source;
    bool quick = false;
    bool simulated = false;
    std::vector<ReproducedTable> tables;
};

// Reads every figure and cause of the investigation's runs from `db`.
Reproduction read_reproduction(store::Database& db, const engine::Investigation& investigation,
                               const ReproductionRuns& runs, const ReproduceOptions& options);

} // namespace hitmap::collector
