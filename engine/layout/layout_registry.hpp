#pragma once
// The layouts a run may name: the built-ins (builtin_layouts.hpp) and those a workload plugin
// added (engine/plugin/plugin_api.hpp). Plugins are loaded before any run starts, so additions
// happen once, on one thread, and lookups afterwards only read.
#include "engine/layout/layout.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace hitmap::engine {

// A plugin's struct type with the C size of each field (index = FieldId). Returns the stored
// type, which lives until the process exits. Throws LayoutError when the name is taken or the
// sizes do not match the fields.
const StructType& add_struct_type(StructType type, std::vector<std::uint32_t> field_sizes);
// A plugin's layout of a type added before; validated as a layout file is. Throws LayoutError.
void add_layout(Layout layout);

const StructType* find_plugin_struct_type(std::string_view name);
// The C size of a field of a plugin's type; nullopt for any other type.
std::optional<std::uint32_t> plugin_field_size(const StructType& type, FieldId field);

// Built-in or plugin layout by struct and version; null when there is none.
const Layout* find_layout(std::string_view struct_name, std::string_view version);
// Every layout: the built-ins, then the plugins', in the order they were added.
std::vector<const Layout*> known_layouts();

} // namespace hitmap::engine
