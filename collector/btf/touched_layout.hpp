#pragma once
// Any struct placed on a capture, named by what the capture touched. A run's objects have
// engine layouts, whose field ids are 8 bits, while a kernel struct's members run to thousands
// once nested structs are expanded (task_struct); so the object's layout is made of the members
// holding a sampled offset only, each by its dotted path and at its bytes, under a struct type
// made for it. The struct keeps its name and size. A sampled offset in no member is named for
// the gap it is in, so a report says so: "(hole before mm_count)", "(tail padding)".
#include "collector/btf/struct_layout.hpp"
#include "engine/layout/layout.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace hitmap::btf {

// The member with bytes of its own (a field or bitfield; for overlapping union members the
// first declared) holding byte `offset` of the struct; null in a hole, in the tail padding or
// past the end.
const Member* member_at(const StructLayout& layout, std::uint64_t offset);

// A member's bytes as a field placement (holds_bytes members).
engine::FieldPlacement placement_of(const Member& m);

struct TouchedLayout {
    std::shared_ptr<const engine::StructType> type; // what `layout` points at
    engine::Layout layout;
};

// `offsets` count from the struct's start (those outside it are ignored). Throws
// engine::LayoutError when the offsets touch more members and gaps than a field id can number.
TouchedLayout touched_layout(const StructLayout& layout, std::span<const std::uint64_t> offsets);

} // namespace hitmap::btf
