#pragma once
// The columns of a table of cachelines, declared once as data (perf's way: one declaration per
// column serves its stdio output and its TUI). The text report, the exports (CSV, Markdown,
// HTML) and the GUI's cacheline table take every header, value, format and width from here, so
// the same figure has the same name everywhere.
#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/table_cell.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

enum class CachelineColumnId {
    rank,
    address,
    object,
    line,
    hitm,
    hitm_rate,        // by the run's basis: per 1k traced operations or % of captured HITM
    hitm_per_1k,      // per 1k traced operations only (tables of runs with different bases)
    hitm_share,       // % of the capture's HITMs only
    transfers,        // nullopt where the source cannot count every transfer
    transfers_rate,   // by the run's basis; a share of HITMs has no transfer share: "–"
    transfers_per_1k, // per 1k traced operations only
    load_hitm,
    store_hitm,
    invalidations,
    clean_forward,
    loads,
    stores,
    cycles, // the cost model's estimate of the cycles the line's misses stalled
    fields,
};

struct CachelineColumn {
    CachelineColumnId id{};
    std::string header;
    int decimals = 0;   // of a number cell in text; CSV keeps full precision
    std::string suffix; // after a number cell in text: "%"
    int width = 0;      // of the column in the text report; 0: the last column, unpadded
    bool text = false;  // left-aligned text rather than a right-aligned number
    bool heat = false;  // the GUI draws the value as a bar scaled to the column's largest
    Cell (*value)(const CachelineRow&) = nullptr;
};

// A column, with its header titled by `basis` where it is a rate of the run's basis.
CachelineColumn cacheline_column(CachelineColumnId id,
                                 const std::optional<report::RateBasis>& basis = std::nullopt);

// Which table of one run's lines: the same columns, in the order its reader needs them.
enum class LineTable {
    text,   // perf c2c's order (number, address, object, counts), the fields last as the one
            // column of unbounded width
    browse, // an app's table: which object, line and fields first, then the counts; the
            // address last
};

// The table of one run's lines (the text report, the GUI's cacheline table).
std::vector<CachelineColumn> run_line_columns(const std::optional<report::RateBasis>& basis,
                                              LineTable table);
// The hottest lines of several runs, as the exports list them: rates per 1k operations and
// shares of a capture in their own columns, since the runs' bases may differ.
std::vector<CachelineColumn> report_line_columns();

// The cell as text: "–" for unknown, numbers with the column's decimals and suffix. Not escaped.
std::string cell_text(const CachelineRow& row, const CachelineColumn& column);

} // namespace hitmap::analysis
