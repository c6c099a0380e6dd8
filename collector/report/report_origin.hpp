#pragma once
// A report's origin (analysis::ReportOrigin) as the sentence its header prints.
#include "collector/analysis/origin.hpp"

#include <string>

namespace hitmap::report {

// "Made 2026-12-07T08:10:00.000Z on host build-1, kernel 6.1.0-13-amd64, by hitmap 0.1.0
// (commit 7cc2407abcd1)." Control characters of the host's name are escaped.
std::string origin_sentence(const analysis::ReportOrigin& origin);

} // namespace hitmap::report
