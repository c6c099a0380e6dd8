#pragma once
// One struct layout drawn line by line, as the layout view shows it: the fields on each cache
// line with a run's counts, the bytes no modelled field covers, and two layouts of one struct
// compared (collector/btf's diff: which fields moved lines, which left or joined the hot
// field's line). Lines are counted from offset 0, as the diff counts them: where an instance
// starts within a line is its allocation's, not its layout's.
#include "collector/analysis/layout_catalog.hpp"
#include "collector/btf/layout_diff.hpp"
#include "collector/btf/struct_layout.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

// A field's bytes on one line: a field that straddles a line boundary is on both lines.
struct LineField {
    engine::FieldId field = 0;
    std::string name;
    std::uint32_t offset = 0; // of its first byte on the line, from the struct's start
    std::uint32_t size = 0;   // its bytes on the line
    // The whole field's counts in the heat run (a straddling field has the same on both
    // lines); nullopt without a heat run, or when the run did not count it (StructHeat).
    std::optional<c2c::ClassCounts> counts;
    bool moved = false; // compare_layouts: the other layout puts it on another line
};

// Bytes [offset, offset + size) of the struct.
struct ByteRange {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

struct LayoutLine {
    std::uint32_t index = 0;
    std::uint32_t begin = 0, end = 0; // the struct's bytes on it; the last line ends at sizeof
    std::vector<LineField> fields;    // by offset
    // Bytes of the line no modelled field covers: holes, tail padding, or kernel members the
    // engine does not model (its struct mem_cgroup has the fields the charge paths reach).
    std::vector<ByteRange> gaps;
};

// Where a map's counts come from.
struct MapHeat {
    std::int64_t run = 0;
    std::optional<std::uint64_t> traced_ops;
    store::KnownCounts known; // StructHeat::known: the counts its source could not give are "–"
    // The run recorded the struct under this very layout. Otherwise its counts are of another
    // placement: accesses carry over, but transfers depend on what shares a line.
    bool same_layout = false;
    // The layouts the run recorded it under: "v6.0", or "mem_cgroup v6.0" for its container.
    std::vector<std::string> recorded;
};

struct LayoutMap {
    std::string struct_name, version, origin; // origin empty: unknown (a stored layout)
    std::uint32_t size = 0;
    std::uint32_t line_size = btf::kCacheLineSize;
    std::vector<LayoutLine> lines; // every line of sizeof, in order
    std::optional<MapHeat> heat;

    // Lines with at least one modelled field.
    std::size_t lines_with_fields() const;
};

// `heat` must be of the layout's struct type (throws engine::LayoutError otherwise).
LayoutMap map_layout(const engine::Layout& layout, const StructHeat* heat = nullptr);

// Two layouts of one struct, each with its own heat (or none).
struct LayoutPair {
    LayoutMap a, b;                       // the fields in `moved` are marked on both sides
    std::vector<btf::FieldChange> fields; // every field either places, in the type's order
    std::vector<btf::HotLine> hot;        // the hot field's line in both, who left or joined
    // The fields that left or joined the hot field's line (every hot field's), in the type's
    // order; without a hot field, those on another line in B than in A.
    std::vector<std::string> moved;
};

// Throws engine::LayoutError when the layouts are of different struct types.
LayoutPair compare_layouts(const engine::Layout& a, const StructHeat* heat_a,
                           const engine::Layout& b, const StructHeat* heat_b);

} // namespace hitmap::analysis
