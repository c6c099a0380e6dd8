#pragma once
// The fidelity scorecard of `reproduce --simulate --scorecard`: every seed figure a table
// compares with ours (a row's figure, its change against its baseline row, a ratio of two of
// its figures), from the simulated rows, whose figures are a function of the committed
// calibrations. A figure that set a free parameter of the model (engine::Anchor) is *anchored*
// and names that parameter; only *predicted* figures count toward the score.
#include "collector/reproduce/reproduction.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::collector {

struct ScoreFigure {
    std::string investigation, table, row;
    std::string figure; // "run time (s)", "change", or a ratio's label
    double seed = 0;
    double ours = 0;
    double ratio = 0; // ours / seed
    bool within_2x = false;
    std::optional<bool> direction_right;    // against the baseline row; none for a baseline
    std::optional<std::string> anchored_by; // the parameter it set; nullopt: predicted
};

struct Scorecard {
    std::vector<ScoreFigure> figures;
    std::size_t predicted = 0, predicted_within_2x = 0, predicted_direction_right = 0;
    std::size_t with_direction = 0; // predicted figures that have a direction
    // Each free parameter the figures anchored: "investigation parameter: how it was set".
    std::vector<std::string> anchors;
};

// The factor within which a figure counts as reproduced.
inline constexpr double kWithinFactor = 2.0;

Scorecard score(const std::vector<Reproduction>& all);

} // namespace hitmap::collector
