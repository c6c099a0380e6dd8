#pragma once
// Stored text (lock names from imported files, workload variants named after them, symbols,
// plugins' names) is whatever a user fed in or an older version stored: every text output
// escapes its control characters so that none reaches a terminal raw, and JSON output does not
// fail on bytes that are not UTF-8.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hitmap::support {

// Control characters (C0, DEL, and C1 spelled in UTF-8) and bidirectional formatting characters
// as visible escapes: ESC -> "\x1b", CR -> "\r", NUL -> "\0", U+009B -> "\u009b", U+202E ->
// "\u202e"; a backslash stays as it is. Other text, invalid UTF-8 included, is returned
// unchanged. Every name that comes from outside (plugins, databases, imported files) goes
// through this before a CLI prints it.
std::string escape_control(std::string_view text);
bool has_control(std::string_view text);

// j.dump(indent) with invalid UTF-8 replaced by U+FFFD instead of throwing.
std::string json_text(const nlohmann::json& j, int indent = 2);

} // namespace hitmap::support
