#pragma once
// What a text that is not a perf c2c report is, for the refusal: the perf outputs people save
// next to their c2c reports.
#include <string>
#include <string_view>

namespace hitmap::perfc2c {

// "perf c2c usage text", "perf mem report output", "perf evlist -v output", "perf script
// output", or "a text without a 'Trace Event Information' section".
std::string describe_other_text(std::string_view text);

} // namespace hitmap::perfc2c
