#pragma once
// A BTF struct layout as text, in pahole's spirit: one member per line with its offset and
// size, nested members by dotted path and indented, bitfields as BYTE:BIT and a width in bits,
// zero-size markers named for what they mark, holes and cache-line boundaries between members.
#include "collector/btf/struct_layout.hpp"

#include <string>

namespace hitmap::btf {

// Members nested deeper than `max_depth` (0: the struct's own members only) are left out.
std::string format_layout_text(const StructLayout& layout, unsigned max_depth = ~0u);

// What a zero-size member marks: "CACHELINE_PADDING", "cacheline group sock_write_rx begins",
// "flexible array", "zero-length array" or "empty struct".
std::string marker_note(const Member& member);

} // namespace hitmap::btf
