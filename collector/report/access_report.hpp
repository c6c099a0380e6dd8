#pragma once
// `report RUN --access`: each field's reads and writes and what that makes it, the written
// fields that share a line or the code writing them, and the read-only fields on written lines
// (analysis::field_access), as text and JSON.
#include "collector/analysis/field_access.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace hitmap::report {

std::string format_field_access(const analysis::FieldAccessReport& r);
nlohmann::json field_access_json(const analysis::FieldAccessReport& r);

} // namespace hitmap::report
