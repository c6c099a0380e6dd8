#include "collector/report/report_html.hpp"

#include "collector/report/output_text.hpp"
#include "collector/report/report_tables.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

// Kept to what Qt's rich-text engine also draws, so the PDF (rendered from the same page)
// looks like the HTML. Tables in 9 pt: the ten columns of the runs' table then fit A4 with
// headers wrapped between words (at 10 pt Qt broke "Cachelines" inside the word; kept whole
// with nowrap, the table ran off the page).
constexpr const char* kStyle = R"(
body { font-family: sans-serif; font-size: 10pt; margin: 24px; color: #222; }
h1 { font-size: 16pt; } h2 { font-size: 13pt; margin-top: 20px; } h3 { font-size: 11pt; }
table { border-collapse: collapse; margin: 6px 0 14px 0; font-size: 9pt; }
th, td { border: 1px solid #bbb; padding: 2px 6px; }
th { background-color: #eee; text-align: left; }
td.num { text-align: right; white-space: nowrap; }
p.note, p.footer { color: #555; }
p.origin { color: #333; font-weight: bold; }
div.picture { margin: 8px 0; }
)";

const ReportTable* find_table(const std::vector<ReportTable>& tables, std::string_view id) {
    for (const auto& t : tables)
        if (t.id == id)
            return &t;
    return nullptr;
}

// Lists of fields ("memory.usage,memory.high") may wrap after each comma, not inside a name.
std::string breakable(std::string text) {
    for (std::size_t at = text.find(','); at != std::string::npos; at = text.find(',', at + 1))
        text.insert(at + 1, "\u200b"); // zero-width space: a break opportunity
    return text;
}

std::string table_html(const ReportTable& t) {
    // The full width: Qt's typesetting otherwise squeezes a wide table into its narrowest form.
    std::string out = fmt::format("<h3>{}</h3>\n<table width=\"100%\">\n<tr>", html_text(t.title));
    for (const auto& c : t.columns)
        out += fmt::format("<th>{}</th>", html_text(c.title));
    out += "</tr>\n";
    for (const auto& row : t.rows) {
        out += "<tr>";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const bool number = std::holds_alternative<std::int64_t>(row[i]) ||
                                std::holds_alternative<double>(row[i]);
            out += fmt::format("<td{}>{}</td>", number ? " class=\"num\"" : "",
                               breakable(html_text(cell_text(row[i], t.columns[i].decimals, t.columns[i].suffix))));
        }
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

std::string tables_html(const std::vector<ReportTable>& tables, std::string_view id) {
    const ReportTable* t = find_table(tables, id);
    return t ? table_html(*t) : std::string();
}

std::string picture(const std::string& fragment) {
    return fragment.empty() ? std::string() : "<div class=\"picture\">" + fragment + "</div>\n";
}

} // namespace

std::string report_html(const analysis::Report& r, ReportPictures& pictures,
                        const std::string& generator) {
    const std::vector<ReportTable> tables = report_tables(r);
    std::string out =
        fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>hitmap report: {0}</title>\n<style>{1}</style>\n</head>\n<body>\n"
                    "<h1>hitmap report: {0}</h1>\n<p class=\"origin\">{2}</p>\n",
                    html_text(r.database), kStyle, html_text(origin_sentence(r.origin)));
    out += "<p class=\"note\">Every figure's source is in its row: measured (this machine), "
           "traced (probes recording), simulated (virtual time on a simulated machine), "
           "predicted, imported; sources are never pooled. – is unknown, never 0.</p>\n";

    if (r.comparison) {
        const analysis::PairSection& pair = *r.comparison;
        out += "<h2>Comparison</h2>\n<ul>\n";
        for (const std::string& s : comparison_sentences(r))
            out += fmt::format("<li>{}</li>\n", html_text(s));
        out += "</ul>\n";
        out += picture(pictures.line_strips(r, pair));
        out += picture(pictures.field_bars(r, pair));
        out += tables_html(tables, "comparison_fields");
        if (!pair.locks.empty()) {
            out += picture(pictures.lock_bars(r, pair));
            out += tables_html(tables, "comparison_locks");
        }
    }

    out += "<h2>Runs</h2>\n" + tables_html(tables, "runs") + tables_html(tables, "lines") +
           tables_html(tables, "code");

    if (find_table(tables, "lock_classes")) {
        out += "<h2>Locks</h2>\n" + tables_html(tables, "lock_classes");
        // The busiest class with wait times of each run: one picture per run stays readable.
        for (const auto& s : r.runs)
            for (const auto& c : s.lock_classes)
                if (!c.waits.empty()) {
                    out += fmt::format("<h3>Wait times of {} (run {})</h3>\n",
                                       html_text(c.total.name), s.detail.run.id);
                    out += picture(pictures.wait_histogram(c));
                    break;
                }
    }

    if (!r.scaling.empty()) {
        out += "<h2>Scaling</h2>\n";
        for (const auto& w : r.scaling)
            out += picture(pictures.scaling(w));
        out += tables_html(tables, "scaling");
    }
    out += fmt::format("<p class=\"footer\">Written by {}.</p>\n</body>\n</html>\n",
                       html_text(generator));
    return out;
}

} // namespace hitmap::report
