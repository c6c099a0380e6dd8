#pragma once
// Throughput against thread count per variant, with the spread across repeated runs: the data
// behind the scaling charts of the app and of the reports.
#include "collector/store/records.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

struct ScalingPoint {
    int threads = 0;
    double median = 0, min = 0, max = 0; // ops/s over the repeats
    int repeats = 0;
};

struct ScalingSeries {
    std::string variant;
    store::Source source = store::Source::measured; // never pooled: one series per source
    std::string machine;              // the simulated machine; empty for this machine's runs
    std::string name;                 // "v6.0 (measured)", "v6.0 (simulated xeon-2s-72)"
    std::vector<ScalingPoint> points; // by threads
    // Threads from which the curve stops growing: the first point within 5 % of the highest
    // median when later points follow it; nullopt while it still grows at its last point, and
    // for fewer than three points.
    std::optional<int> stops_growing_at;
};

// Complete runs of one workload with a throughput, one series per variant, source and
// simulated machine: traced ops/s (probes recording) are slower than measured ones, simulated
// ones are another machine's, and none shares a curve with another. Predicted and imported
// runs have no throughput of their own.
std::vector<ScalingSeries> scaling_series(const std::vector<store::RunRecord>& runs,
                                          const std::string& workload);

} // namespace hitmap::analysis
