#pragma once
// The rows and columns of the c2c tables (cacheline table, per-offset table, field pairs,
// per-CPU split), built from a run's C2cData. Counts are shown raw and in proportion
// (report::RateBasis: per 1,000 traced ops, or a capture's share of its HITMs); what the run's
// source could not count (store::ShownCounts) is "–".
#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/field_access.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/report/rate.hpp"
#include "collector/store/c2c_tables.hpp"
#include "gui/models/table_model.hpp"

#include <QString>
#include <vector>

namespace hitmap::gui {

struct OffsetRow {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    QString field;
    store::ShownCounts counts;
    std::optional<report::RateBasis> basis;
};

// Only a replay knows whose write a line carried, so its counts are all known.
struct PairRow {
    QString accessor;
    QString writer; // "(never written)" when the line had no writer
    bool true_sharing = false;
    c2c::PairCounts counts;
    std::optional<report::RateBasis> basis;
};

struct CpuRow {
    QString who; // "cpu 3" or "thread 1"
    store::ShownCounts counts;
    std::optional<report::RateBasis> basis;
};

// "top/mid/leaf/memory [0]"
QString line_title(const store::C2cData& data, const c2c::LineKey& line);

std::vector<OffsetRow> offset_rows(const store::C2cData& data, const c2c::LineKey& line);
std::vector<PairRow> pair_rows(const store::C2cData& data, const c2c::LineKey& line);
std::vector<CpuRow> cpu_rows(const store::C2cData& data, const c2c::LineKey& line);

// The rate columns are titled by the run's basis ("Tot Hitm/1k op", "Tot Hitm %HITM"). The
// lines' columns are analysis::run_line_columns; the rows analysis::cacheline_rows.
using Basis = std::optional<report::RateBasis>;
std::vector<Column<analysis::CachelineRow>> line_columns(const Basis& basis);
std::vector<Column<OffsetRow>> offset_columns(const Basis& basis);
std::vector<Column<PairRow>> pair_columns(const Basis& basis);
std::vector<Column<CpuRow>> cpu_columns(const Basis& basis);

// perf c2c's rows of a line, as its TUI lists them: offset and field, HITMs and stores, mean
// cycles, CPUs and nodes, pid/tid, code address, symbol, source:line, object.
std::vector<Column<analysis::CodeRow>> code_columns();
// A line's fields by use: reads, writes, HITMs and read-only ... write-only (any source).
std::vector<analysis::FieldAccess> access_rows(const store::C2cData& data,
                                               const analysis::RunDetail& detail,
                                               const c2c::LineKey& line);
std::vector<Column<analysis::FieldAccess>> access_columns();
// One line of a line's drill-down: "Lcl HITM 2,269 · Rmt HITM 9,834 · 74.9 % of captured HITM
// · loads 40,400 · stores 109,504 · node 0 · mean load cycles –".
QString drilldown_summary(const analysis::LineDrilldown& d, std::optional<double> hitm_share);

} // namespace hitmap::gui
