#include "collector/report/report_markdown.hpp"

#include "collector/report/output_text.hpp"
#include "collector/report/report_tables.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

std::string table_markdown(const ReportTable& t) {
    std::string head = "|", rule = "|";
    for (const auto& c : t.columns) {
        head += fmt::format(" {} |", markdown_text(c.title));
        rule += " --- |";
    }
    std::string out = fmt::format("### {}\n\n{}\n{}\n", markdown_text(t.title), head, rule);
    for (const auto& row : t.rows) {
        out += "|";
        for (std::size_t i = 0; i < row.size(); ++i)
            out += fmt::format(" {} |", markdown_text(cell_text(row[i], t.columns[i].decimals, t.columns[i].suffix)));
        out += "\n";
    }
    return out + "\n";
}

} // namespace

std::string report_markdown(const analysis::Report& r) {
    std::string out = fmt::format("## hitmap report: {}\n\n{}\n\n", markdown_text(r.database),
                                  markdown_text(origin_sentence(r.origin)));
    out += "Every figure's source is in its row: measured (this machine), traced (probes "
           "recording), simulated (virtual time on a simulated machine), predicted, imported. "
           "– is unknown, never 0.\n\n";
    for (const std::string& s : comparison_sentences(r))
        out += fmt::format("- {}\n", markdown_text(s));
    if (r.comparison)
        out += "\n";
    for (const ReportTable& t : report_tables(r))
        out += table_markdown(t);
    return out;
}

} // namespace hitmap::report
