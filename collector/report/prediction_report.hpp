#pragma once
// A prediction (analysis::Prediction) as `predict` prints it: per field, recorded, predicted and
// measured transfers and HITMs per 1,000 operations, and the error of the prediction.
#include "collector/analysis/prediction.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hitmap::report {

// `recorded_label` names the first column's source ("recorded", or "baseline" for a
// re-simulation).
std::string format_prediction(const analysis::Prediction& p, bool with_measured,
                              std::string_view recorded_label = "recorded");
nlohmann::json prediction_json(const analysis::Prediction& p);

} // namespace hitmap::report
