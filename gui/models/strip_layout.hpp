#pragma once
// Geometry of the cacheline strip: each field of the line's object drawn as a box at its
// offset and width, with the counts that colour it. Plain values, so tests need no widgets.
#include "collector/report/rate.hpp"
#include "collector/store/c2c_tables.hpp"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace hitmap::gui {

struct StripBox {
    engine::FieldId field = 0;
    QString name;
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
    std::vector<StripBox> boxes; // by offset
    std::uint64_t max_transfers = 0;
    std::optional<report::RateBasis> basis; // what labels and tooltips divide counts by
    // What the run's source counted: tooltips show the rest as "–". Boxes are coloured by the
    // transfers counted, all of them or (store classes unknown) loads' HITMs and clean forwards.
    store::KnownCounts known;
    bool counted = true; // false: no run's counts at all (names only, no "–")
};

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
