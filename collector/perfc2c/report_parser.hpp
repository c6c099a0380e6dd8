#pragma once
// The one entry point: a `perf c2c report --stdio` (or `--stats`) text to a C2cReport.
#include "collector/perfc2c/parsed_report.hpp"

#include <string_view>

namespace hitmap::perfc2c {

// Reads every section (reference/c2c.md §1.4) of the 2016, ~2020 and current layouts, HITM and
// peer (Arm SPE) modes. Unknown sections, labels and columns become notes. Throws
// NotAC2cReport for a text without a "Trace Event Information" section (naming what it is when
// recognised), C2cParseError for a line that cannot be read, for a report cut off before a
// section perf always prints or inside its Pareto, and for more than kMaxSharedLines lines (at
// the first line too many), C2cTextEncodingError for UTF-16. A byte order mark, CR line ends and
// mail quote prefixes are looked through. Time and memory are linear in the text's size.
C2cReport parse_c2c_report(std::string_view text);

} // namespace hitmap::perfc2c
