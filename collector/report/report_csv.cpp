#include "collector/report/report_csv.hpp"

#include "collector/report/output_text.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

std::string csv_field(const std::string& text) {
    // Control characters are escaped like every other output, so a line break inside a stored
    // name cannot end the record.
    const std::string safe = escape_control(text);
    if (safe.find_first_of(",\"") == std::string::npos)
        return safe;
    std::string out = "\"";
    for (char c : safe) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

std::string csv_cell(const Cell& cell) {
    struct Visit {
        std::string operator()(std::monostate) const { return {}; }
        std::string operator()(const std::string& s) const { return csv_field(s); }
        std::string operator()(std::int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const { return fmt::format("{}", v); }
    };
    return std::visit(Visit{}, cell);
}

} // namespace

std::string table_csv(const ReportTable& t) {
    std::string out;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        out += (i ? "," : "") + csv_field(t.columns[i].title);
    out += "\r\n";
    for (const auto& row : t.rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + csv_cell(row[i]);
        out += "\r\n";
    }
    return out;
}

} // namespace hitmap::report
