// The cacheline columns are declared once (collector/analysis/cacheline_columns.cpp): the text
// report's table, the exports' lines table and the JSON take their headers and values from it.
// (The GUI's table: tests/gui/tst_gui_models.cpp, lineColumnsAreTheSchemas.)
#include "collector/analysis/cacheline_columns.hpp"
#include "collector/analysis/report_data.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/report/cacheline_report.hpp"
#include "collector/report/report_csv.hpp"
#include "collector/report/report_tables.hpp"
#include "small_db.hpp"

#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

using Id = CachelineColumnId;

std::vector<std::string> headers(const std::vector<CachelineColumn>& columns) {
    std::vector<std::string> out;
    for (const auto& c : columns)
        out.push_back(c.header);
    return out;
}

// Whether `words` appear in `line` in this order.
bool has_in_order(const std::string& line, const std::vector<std::string>& words) {
    std::size_t at = 0;
    for (const auto& w : words) {
        at = line.find(w, at);
        if (at == std::string::npos)
            return false;
        at += w.size();
    }
    return true;
}

TEST(CachelineColumns, RatesAreTitledByTheRunsBasis) {
    const analysis::RateBasis ops{analysis::RateBasis::Kind::per_thousand_ops, 1000};
    const analysis::RateBasis share{analysis::RateBasis::Kind::share_of_hitm, 20};
    EXPECT_EQ(cacheline_column(Id::hitm_rate, ops).header, "Tot Hitm/1k op");
    EXPECT_EQ(cacheline_column(Id::hitm_rate, share).header, "Tot Hitm %HITM");
    EXPECT_EQ(cacheline_column(Id::transfers_rate, std::nullopt).header, "Xfer/1k op");

    CachelineRow row;
    row.counts.hitm = 5;
    row.basis = share;
    row.hitm_share = 25.0;
    EXPECT_EQ(cell_text(row, cacheline_column(Id::hitm_rate, share)), "25.0%");
    EXPECT_EQ(cell_text(row, cacheline_column(Id::hitm_share)), "25.0%");
    // A share of HITMs is no rate per operation, and transfers the capture could not count are
    // unknown, never 0.
    EXPECT_EQ(cell_text(row, cacheline_column(Id::hitm_per_1k)), "–");
    EXPECT_EQ(cell_text(row, cacheline_column(Id::transfers_rate, share)), "–");
    row.basis = ops;
    EXPECT_EQ(cell_text(row, cacheline_column(Id::hitm_per_1k)), "5.00");
}

TEST(CachelineColumns, TextReportAndExportsTakeTheirHeadersFromTheSchema) {
    test::SmallDb small;
    const RunDetail detail = read_run_detail(small.db, 1);
    ASSERT_TRUE(detail.c2c);
    const auto basis = analysis::rate_basis(*detail.c2c);

    // The text report: its table's header row is the schema's headers, in order.
    const std::string text = report::format_c2c_report(*detail.c2c, "run 1");
    const auto table = text.find("Shared Data Cache Line Table");
    ASSERT_NE(table, std::string::npos);
    const auto header_start = text.find('\n', text.find("====", table)) + 1;
    const std::string header_row =
        text.substr(header_start, text.find('\n', header_start) - header_start);
    EXPECT_TRUE(has_in_order(header_row, headers(run_line_columns(basis, LineTable::text))))
        << header_row;
    EXPECT_EQ(header_row.substr(header_row.rfind(' ') + 1), "Fields");

    // The exports (CSV, Markdown, HTML render these tables): "Run", then the schema.
    ReportRequest request;
    request.runs = {1};
    const Report report = build_report(small.db, request);
    const auto tables = report::report_tables(report);
    const auto lines =
        std::find_if(tables.begin(), tables.end(), [](const auto& t) { return t.id == "lines"; });
    ASSERT_NE(lines, tables.end());
    std::vector<std::string> titles;
    for (const auto& c : lines->columns)
        titles.push_back(c.title);
    std::vector<std::string> expected{"Run"};
    for (const auto& h : headers(report_line_columns()))
        expected.push_back(h);
    EXPECT_EQ(titles, expected);
    const std::string csv = report::table_csv(*lines);
    EXPECT_EQ(csv.substr(0, csv.find('\r')),
              "Run,Object,Line,Fields,Tot Hitm,Tot Hitm/1k op,Tot Hitm %,Xfer,Xfer/1k op");
    ASSERT_FALSE(lines->rows.empty());
    EXPECT_EQ(lines->rows.front().size(), titles.size());
}

} // namespace
} // namespace hitmap::analysis
