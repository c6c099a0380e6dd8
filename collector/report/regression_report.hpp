#pragma once
// A comparison (analysis/regression.hpp) as text for a terminal, Markdown for a CI step summary,
// and JSON. Text and Markdown show, per group, ops/s and the `limit` largest figures of every
// other kind, plus every figure that tripped a gate; JSON holds every figure.
#include "collector/analysis/regression.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hitmap::report {

struct RegressionReport {
    const analysis::Comparison& comparison;
    std::vector<analysis::Violation> violations;
    std::vector<std::string> noisy; // analysis::noisy_groups
    std::size_t limit = 5;          // 0: every figure
};

// One robot line per group and gate (analysis::summarize), the worst figure named.
std::vector<std::string> regression_lines(const RegressionReport& r);
std::string regression_text(const RegressionReport& r);
std::string regression_markdown(const RegressionReport& r);
nlohmann::json regression_json(const RegressionReport& r);

} // namespace hitmap::report
