#pragma once
// Geometry of the cacheline strip: each field of the line's object drawn as a box at its
// offset and width, with the counts that colour it. Plain values, so tests need no widgets.
#include "collector/analysis/rate.hpp"
#include "collector/store/c2c_tables.hpp"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace hitmap::gui {

struct StripBox {
    engine::FieldId field = 0;
    // The field's whole path: "memory.usage"
    QString name;
    QString label;            // the box's: the shortest unambiguous among the object's fields
                              // (analysis::short_field_names), as every strip and report names it
    std::uint32_t offset = 0; // first byte within the strip
    std::uint32_t size = 0;   // bytes within the strip (a field can straddle its edge)
    double x = 0;             // pixels from the strip's left edge
    double width = 0;
    // Summed over the strip's lines; nullopt when not counted (the layout view's fields a run
    // did not count, or all of them when no run is chosen): drawn uncoloured, rates "–".
    std::optional<c2c::ClassCounts> counts;
    bool moved = false; // the layout view's diff: on another line in the other layout, outlined
};

struct StripLayout {
    QString title;            // "top/memory [0]"
    std::uint32_t bytes = 64; // 64, or 128 for an adjacent-line pair
    std::uint32_t line_size = 64;
    double width = 0;
    std::vector<StripBox> boxes;              // by offset
    double max_value = 0;                     // the largest box's strip_value
    std::optional<analysis::RateBasis> basis; // what labels and tooltips divide counts by
    // What the run's source counted: tooltips show the rest as "–". Boxes are coloured by the
    // transfers counted, all of them or (store classes unknown) loads' HITMs and clean forwards.
    store::KnownCounts known;
    bool counted = true; // false: no run's counts at all (names only, no "–")
    // Whose counts the boxes hold: one object's line, or a sum over a run's objects.
    QString scope;
};

// What a box shows, in colour and number: its HITM (the count every source has: perf c2c's
// Tot Hitm where stores have none) per 1,000 traced operations, as a share of a capture's HITMs
// (an import: analysis::rate_basis), or raw when the run has neither. The compare chart beside the
// strips plots the same; tooltips add the rest.
double strip_value(const StripLayout& strip, const c2c::ClassCounts& counts);
// That metric in words, for the caption or colour key of a view of strips.
QString strip_metric(const StripLayout& strip);
// "12.3/1k", "25.0%" (of a capture's HITMs) or "123" (raw), as the box prints its value.
QString strip_value_text(const StripLayout& strip, const c2c::ClassCounts& counts);

// Fills each box's label from the names of all of the object's fields `paths`.
void label_boxes(StripLayout& strip, const std::vector<std::string_view>& paths);

// `bytes` = 128 shows the 128-byte-aligned pair of lines holding `line` (adjacent-line
// prefetch). nullopt when the line's object is unknown.
std::optional<StripLayout> compute_strip(const store::C2cData& data, const c2c::LineKey& line,
                                         double width, std::uint32_t bytes = 64);

// The lines an object spans, in order.
std::vector<c2c::LineKey> object_lines(const store::C2cData& data, engine::ObjectId object);
// Those of them the replay saw accessed (the compare view's per-object strips: a 4 KiB
// struct mem_cgroup has 66 lines, of which the charge paths touch a handful).
std::vector<c2c::LineKey> touched_lines(const store::C2cData& data, engine::ObjectId object);

} // namespace hitmap::gui
