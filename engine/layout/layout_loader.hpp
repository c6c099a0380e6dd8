#pragma once
// User layouts from JSON, and the one place a layout is checked before the engine uses it.
//
//   {"struct": "page_counter", "version": "my-try", "size": 192, "align": 64,
//    "fields": [{"name": "usage", "offset": 0, "size": 8}, ...]}
#include "engine/layout/layout.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace hitmap::engine {

// Throws LayoutError naming the first problem: unknown or duplicate field, a field that
// overlaps another, runs past the end or is not naturally aligned (fields are atomics),
// a size that is not the field's type size, an alignment that is not a power of two.
void validate_layout(const Layout& layout);

Layout parse_layout_json(std::string_view json_text, std::string_view origin);
// The inverse: the format above, fields in offset order, so parse_layout_json reads it back equal.
std::string layout_json(const Layout& layout);
Layout load_layout_file(const std::filesystem::path& path);

// "v6.1" (a built-in version of struct_name) or "path/to/file.json".
Layout resolve_layout(std::string_view struct_name, std::string_view name_or_file);

} // namespace hitmap::engine
