#pragma once
// Lock tables as a reader compares them: one class in two runs (contentions and total wait
// before and after), and a wait-time histogram as bars. Values a source did not provide stay
// nullopt, never 0.
#include "collector/locks/wait_histogram.hpp"
#include "collector/store/lock_tables.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

// One class of one run, summed over its sides and over every lock table of the run.
struct LockTotal {
    std::string name;
    std::optional<double> contentions, wait_us;
};
// The one with the most contentions first.
std::vector<LockTotal> lock_totals(const std::vector<store::LockData>& tables);

// One class in two runs.
struct LockChange {
    std::string name;
    std::optional<double> contentions_before, contentions_after, wait_before_us, wait_after_us;
    // after / before - 1 in percent, when both are known and before > 0
    std::optional<double> change_percent() const;
};

// Every class of either run, the one with the most contentions on either side first.
std::vector<LockChange> lock_changes(const std::vector<store::LockData>& before,
                                     const std::vector<store::LockData>& after);

// A log2 histogram as bars labelled by their lower bound ("512ns", "1.02µs", ...): one per
// bucket holding at least 1/1000 of the peak, the thinner tails summed into a "<" and a "≥"
// bar, so every wait is still counted. No bars for an empty histogram.
struct HistogramBar {
    std::string label;
    double count = 0;
};
std::vector<HistogramBar> histogram_bars(const locks::WaitHistogram& histogram);

} // namespace hitmap::analysis
