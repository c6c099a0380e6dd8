#pragma once
// Predicted vs recorded vs measured transfers per field, all per 1,000 traced operations, so
// runs of different lengths compare. The rows are what `predict` prints and stores.
#include "collector/store/c2c_tables.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

// Per 1,000 traced operations; unknown where no operation was traced.
struct FieldRate {
    std::optional<double> transfers = 0;
    std::optional<double> hitm = 0;
};

struct PredictionRow {
    std::string object;
    std::string field;
    FieldRate recorded;
    FieldRate predicted;
    std::optional<FieldRate> measured; // nullopt: the measured run has no such object
};

struct Prediction {
    std::vector<PredictionRow> rows; // by object name, then field name
    // The line that holds `usage` in each object, summed over page_counters.
    FieldRate usage_line_recorded, usage_line_predicted;
    std::optional<FieldRate> usage_line_measured;
};

// `predicted` is a replay of `recorded`'s trace or a re-simulation of its run; `measured` is
// another run's data (same parameters, the predicted layout). Each is per 1,000 of its own
// operations, and rows are matched by object name and field name.
Prediction compare_prediction(const store::C2cData& recorded, const store::C2cData& predicted,
                              const store::C2cData* measured);

} // namespace hitmap::analysis
