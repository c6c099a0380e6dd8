#pragma once
// An exported report as GitHub-flavoured Markdown, sized for a CI step summary: the runs, the
// comparison in words and tables, then the remaining tables. Every stored string is escaped.
#include "collector/analysis/report_data.hpp"

#include <string>

namespace hitmap::report {

std::string report_markdown(const analysis::Report& report);

} // namespace hitmap::report
