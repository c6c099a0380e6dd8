#pragma once
// The layout view's rows: each line of a struct layout as a cacheline strip (StripLayout), the
// two layouts of a comparison side by side, line i beside line i. Lines where neither side
// has a modelled field collapse into one row: the engine's struct mem_cgroup models the fields
// the charge paths reach, on a few of its 63 lines.
#include "collector/analysis/layout_map.hpp"
#include "gui/models/strip_layout.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace hitmap::gui {

// The strip of one line of `map`, 64 bytes wide, for a StripWidget (x and width are
// fractions of the strip).
StripLayout line_strip(const analysis::LayoutMap& map, const analysis::LayoutLine& line);

struct LayoutRow {
    std::uint32_t first = 0, last = 0; // the lines it stands for: one, or a collapsed run
    // nullopt: the side has no such line (a shorter layout, or no second one), or the row is
    // a collapsed run of lines without fields.
    std::optional<StripLayout> a, b;

    bool collapsed() const { return !a && !b; }
};

std::vector<LayoutRow> layout_rows(const analysis::LayoutMap& a, const analysis::LayoutMap* b);

} // namespace hitmap::gui
