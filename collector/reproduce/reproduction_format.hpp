#pragma once
// `reproduce` output: each table in the seed's shape with the seed's figures beside ours, as
// aligned text, Markdown (CI step summaries) or JSON (schemas/reproduce.schema.json). Unknown
// figures print as "–" and as null.
#include "collector/reproduce/reproduction.hpp"
#include "collector/reproduce/scorecard.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hitmap::collector {

std::string format_reproduction_text(const Reproduction& r);
std::string format_reproduction_markdown(const Reproduction& r);
// {"schema_version": 1, "quick", "simulate", "investigations": [...]}
nlohmann::json reproductions_json(const std::vector<Reproduction>& all);

// The scorecard as a grid and its summary line, or as the "scorecard" member of the JSON.
std::string format_scorecard_text(const Scorecard& card);
std::string format_scorecard_markdown(const Scorecard& card);
nlohmann::json scorecard_json(const Scorecard& card);

} // namespace hitmap::collector
