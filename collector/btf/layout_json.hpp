#pragma once
// A BTF struct layout as JSON: the layout format --layout reads (layout_loader.hpp: struct,
// version, size, align, fields) with the engine's field names when the engine models the
// struct, so the output can be edited and passed back with --layout STRUCT=FILE.json; then
// what that format has no room for: where it came from, the line size, every member with its
// bit offset, bit size, kind and type, and the holes.
#include "collector/btf/struct_layout.hpp"

#include <nlohmann/json.hpp>

namespace hitmap::btf {

// For a struct the engine does not model, `fields` lists every member with bytes of its own
// that is not a struct (the leaves, by dotted path).
nlohmann::ordered_json layout_json(const StructLayout& layout, unsigned max_depth = ~0u);

} // namespace hitmap::btf
