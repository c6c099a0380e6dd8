#pragma once
// A BTF struct layout as JSON: the layout format --layout reads (layout_loader.hpp: struct,
// version, size, align, fields) with the engine's field names when the engine models the
// struct, so the output can be edited and passed back with --layout STRUCT=FILE.json; then
// what that format has no room for: where it came from, the line size, every member with its
// bit offset, bit size, kind and type, and the holes.
#include "collector/btf/struct_layout.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

namespace hitmap::btf {

// For a struct the engine does not model, `fields` lists every member with bytes of its own
// that is not a struct (the leaves, by dotted path).
nlohmann::ordered_json layout_json(const StructLayout& layout, unsigned max_depth = ~0u);

// The inverse for any struct: the members (or, in a file written by hand, the fields) read back,
// so `layout show STRUCT --json` output names the struct's offsets as the BTF it came from did.
// `origin` stands for the text in messages and the layout's origin. Throws engine::LayoutError
// naming the first problem.
StructLayout parse_struct_layout_json(std::string_view json_text, std::string_view origin);

} // namespace hitmap::btf
