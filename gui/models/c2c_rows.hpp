#pragma once
// The rows and columns of the c2c tables (cacheline table, per-offset table, field pairs,
// per-CPU split), built from a run's C2cData. Counts are shown raw and per 1,000 traced ops;
// what the run's source could not count (store::ShownCounts) is "–".
#include "collector/store/c2c_tables.hpp"
#include "gui/models/table_model.hpp"

#include <QString>
#include <vector>

namespace hitmap::gui {

struct LineRow {
    int rank = 0;
    c2c::LineKey key;
    QString object;
    QString fields; // "usage,min,low,high"
    store::ShownCounts counts;
    std::optional<std::uint64_t> ops; // traced operations, the per-1k denominator
};

struct OffsetRow {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    QString field;
    store::ShownCounts counts;
    std::optional<std::uint64_t> ops;
};

// Only a replay knows whose write a line carried, so its counts are all known.
struct PairRow {
    QString accessor;
    QString writer; // "(never written)" when the line had no writer
    bool true_sharing = false;
    c2c::PairCounts counts;
    std::optional<std::uint64_t> ops;
};

struct CpuRow {
    QString who; // "cpu 3" or "thread 1"
    store::ShownCounts counts;
    std::optional<std::uint64_t> ops;
};

// "top/mid/leaf/memory [0]"
QString line_title(const store::C2cData& data, const c2c::LineKey& line);

// Lines with any transfer, ranked like perf c2c (Tot Hitm first).
std::vector<LineRow> line_rows(const store::C2cData& data);
std::vector<OffsetRow> offset_rows(const store::C2cData& data, const c2c::LineKey& line);
std::vector<PairRow> pair_rows(const store::C2cData& data, const c2c::LineKey& line);
std::vector<CpuRow> cpu_rows(const store::C2cData& data, const c2c::LineKey& line);

std::vector<Column<LineRow>> line_columns();
std::vector<Column<OffsetRow>> offset_columns();
std::vector<Column<PairRow>> pair_columns();
std::vector<Column<CpuRow>> cpu_columns();

} // namespace hitmap::gui
