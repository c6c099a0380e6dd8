#pragma once
// An exported report as CSV, one file per table (RFC 4180: comma-separated, CRLF line ends,
// fields quoted where they hold a comma, quote or line break). Unknown cells are empty, never
// 0; numbers keep their full precision.
#include "collector/report/report_tables.hpp"

#include <string>

namespace hitmap::report {

std::string table_csv(const ReportTable& table);

} // namespace hitmap::report
