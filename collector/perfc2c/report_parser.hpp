#pragma once
// The one entry point: a `perf c2c report --stdio` (or `--stats`) text to a C2cReport.
#include "collector/perfc2c/c2c_report.hpp"

#include <string_view>

namespace hitmap::perfc2c {

// Reads every section (reference/c2c.md §1.4) of the 2016, ~2020 and current layouts, HITM and
// peer (Arm SPE) modes. Unknown sections, labels and columns become notes. Throws
// NotAC2cReport for a text without a "Trace Event Information" section (naming what it is when
// recognised), C2cParseError for a line that cannot be read, C2cTextEncodingError for UTF-16.
// CR line ends and mail quote prefixes are looked through.
C2cReport parse_c2c_report(std::string_view text);

} // namespace hitmap::perfc2c
