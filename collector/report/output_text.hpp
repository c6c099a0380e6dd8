#pragma once
// What every collector CLI output goes through. Stored text (lock names from imported files,
// workload variants named after them, symbols) is whatever a user fed in or an older version
// stored, so text output must not hand the terminal raw control sequences, and JSON output must
// not fail on bytes that are not UTF-8.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace hitmap::report {

// Control characters (C0, DEL, and C1 spelled in UTF-8) and bidirectional formatting characters
// as visible escapes: ESC -> "\x1b", CR -> "\r", NUL -> "\0", U+009B -> "\u009b", U+202E ->
// "\u202e"; a backslash stays as it is. Other text, invalid UTF-8 included, is returned
// unchanged. Every name that comes from outside (plugins, databases, imported files) goes
// through this before a CLI prints it.
std::string escape_control(std::string_view text);
bool has_control(std::string_view text);

// Text for a Markdown table cell or list item (GitHub's flavour, which renders inline HTML):
// control characters escaped, '|' '\\' '`' '*' '_' '[' ']' backslash-escaped, '<' '>' '&' as
// entities.
std::string markdown_text(std::string_view text);

// Text for HTML element content and quoted attribute values: control characters escaped, then
// '&' '<' '>' '"' '\'' as entities.
std::string html_text(std::string_view text);

// A rate for people: 47361868 -> "47.36 M", 16570 -> "16.57 k", 950 -> "950".
std::string rate_text(double per_second);

// j.dump(indent) with invalid UTF-8 replaced by U+FFFD instead of throwing.
std::string json_text(const nlohmann::json& j, int indent = 2);

} // namespace hitmap::report
