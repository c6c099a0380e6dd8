#pragma once
// What every collector CLI output goes through. Stored text (lock names from imported files,
// workload variants named after them, symbols) is whatever a user fed in or an older version
// stored, so text output must not hand the terminal raw control sequences, and JSON output must
// not fail on bytes that are not UTF-8.
#include "collector/support/control_text.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hitmap::report {

// Names from outside as visible escapes (support/control_text.hpp): every text output's rule.
using support::escape_control;
using support::has_control;
using support::json_text;

// Text for a Markdown table cell or list item (GitHub's flavour, which renders inline HTML):
// control characters escaped, '|' '\\' '`' '*' '_' '[' ']' backslash-escaped, '<' '>' '&' as
// entities.
std::string markdown_text(std::string_view text);

// Text for HTML element content and quoted attribute values: control characters escaped, then
// '&' '<' '>' '"' '\'' as entities.
std::string html_text(std::string_view text);

// A rate for people: 47361868 -> "47.36 M", 16570 -> "16.57 k", 950 -> "950".
std::string rate_text(double per_second);

} // namespace hitmap::report
