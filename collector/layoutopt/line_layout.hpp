#pragma once
// Layouts built line by line: each group of fields on a cacheline of its own, the struct
// aligned to the line. This is what the optimizer proposes and what its probe replays use.
#include "engine/layout/layout.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hitmap::layoutopt {

inline constexpr std::uint32_t kLineSize = 64;

// Bytes the fields take when laid out in this order, each at its natural alignment.
std::uint32_t packed_bytes(const engine::StructType& type, std::span<const engine::FieldId> fields);

// Line k holds lines[k] in their order, naturally aligned from byte k * kLineSize; size is a
// whole number of lines, alignment one line. Throws OptimizeError when a line overflows.
engine::Layout layout_from_lines(const engine::StructType& type,
                                 const std::vector<std::vector<engine::FieldId>>& lines,
                                 std::string version);

// The layout's fields grouped by the line they start in, lines in offset order (the inverse
// of layout_from_lines for a line-aligned layout).
std::vector<std::vector<engine::FieldId>> lines_of(const engine::Layout& layout);

// "opt-" and 8 hex digits of a hash of the placement (struct, size, alignment, each field's
// offset and size): the same layout always gets the same version, so a later run of it matches
// the stored prediction by its layout parameter.
std::string placement_version(const engine::Layout& layout);

} // namespace hitmap::layoutopt
