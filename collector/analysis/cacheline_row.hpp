#pragma once
// One contended cacheline of a run as every table of lines lists it (the text report, the
// exports, the GUI): which object and line, the fields on it, its counts as the run's source
// could give them (store::ShownCounts: "–" where it could not) and what its rates divide by.
#include "collector/analysis/line_drilldown.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/store/c2c_tables.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

struct CachelineRow {
    std::size_t rank = 0; // place in perf c2c's order (Tot Hitm first), from 0
    c2c::LineKey key;
    std::string object; // the object's name as stored, not escaped; "object 7" without one
    std::string fields; // "usage,min,low,high"
    store::ShownCounts counts;
    std::optional<analysis::RateBasis> basis; // what the rates divide by; nullopt: no rates
    // Percent of the capture's HITMs (perf c2c's own percentage), whether or not the run also
    // counted operations; nullopt without a capture total.
    std::optional<double> hitm_share;
    std::optional<std::uint64_t> lcl_hitm, rmt_hitm; // perf's split; a trace has no nodes
    std::vector<CodeRow> code; // perf c2c's rows of the line: symbols, source lines, CPUs
};

struct CachelineRowOptions {
    bool only_shared = true; // drop lines without any transfer
    std::size_t limit = std::numeric_limits<std::size_t>::max();
    // The lines' drill-down (line_drilldowns) for the HITM split and code; null: none.
    const std::map<std::uint64_t, LineDrilldown>* drilldown = nullptr;
};

// The run's lines ranked like perf c2c (analysis::ranked_lines).
std::vector<CachelineRow> cacheline_rows(const store::C2cData& data,
                                         const CachelineRowOptions& options = {});

// The object's name as stored, not escaped; "object 7" where the run has no such object.
std::string object_name(const store::C2cData& data, engine::ObjectId id);

// "top/mid/leaf [3]": the line's object and its index in it. Text: control characters escaped.
std::string line_name(const store::C2cData& data, const c2c::LineKey& line);

// "usage,min,low,high" — the fields of an object that lie on one of its lines.
std::string fields_on_line(const store::C2cData& data, const c2c::LineKey& line);

// Lines ranked by HITM, then all transfers, then position (perf c2c sorts on Tot Hitm).
std::vector<const c2c::LineStats*> ranked_lines(const c2c::ReplayResult& result, bool only_shared);

// Per 1,000 traced operations; unknown (nullopt) when either is, or no operation was traced.
std::optional<double> per_thousand(std::optional<std::uint64_t> count,
                                   std::optional<std::uint64_t> ops);
// The same as text with two decimals, or "–".
std::string per_thousand_text(std::optional<std::uint64_t> count, std::optional<std::uint64_t> ops);

// "top/mid/leaf [3]" with control characters escaped, as text shows a row's line.
std::string line_text(const CachelineRow& row);

} // namespace hitmap::analysis
