#pragma once
// How a field is named where room is short (a strip's box, a chart's axis): the shortest
// trailing part of its path that no other field shown beside it ends with. "memory.usage" and
// "swap.usage" stay whole, a lone "memory.high" becomes "high". One function, so the app's
// strips and the exported reports name a field the same way whatever the box's width.
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::analysis {

// For each path of `paths` (dot-separated, "memory.usage"), its shortest suffix of whole
// components that is the suffix of no other path in `paths`; the whole path when every shorter
// suffix is shared. Equal paths keep their whole path. Same order as `paths`.
std::vector<std::string> short_field_names(const std::vector<std::string_view>& paths);

} // namespace hitmap::analysis
