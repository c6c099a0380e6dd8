#pragma once
// Throughput against thread count per variant, with the spread across repeated runs: the data
// behind the scaling chart.
#include "collector/store/records.hpp"

#include <QString>
#include <vector>

namespace hitmap::gui {

struct ScalingPoint {
    int threads = 0;
    double median = 0, min = 0, max = 0; // ops/s over the repeats
    int repeats = 0;
};

struct ScalingSeries {
    QString variant;
    store::Source source = store::Source::measured; // never pooled: one series per source
    QString name;                                   // "v6.0" or "v6.0 (traced)"
    std::vector<ScalingPoint> points;               // by threads
};

// Complete runs of one workload with a throughput, one series per variant and source: traced
// ops/s (probes recording) are slower than measured ones and never share a curve with them.
// Predicted and imported runs have no throughput of their own.
std::vector<ScalingSeries> scaling_series(const std::vector<store::RunRecord>& runs,
                                          const std::string& workload);

} // namespace hitmap::gui
