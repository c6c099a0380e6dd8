#include "engine/layout/layout_registry.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"

#include <deque>
#include <fmt/format.h>

namespace hitmap::engine {

namespace {

struct PluginType {
    StructType type;
    std::vector<std::uint32_t> field_sizes;
};

// Deques: a type's or layout's address must not move when another is added.
std::deque<PluginType>& plugin_types() {
    static std::deque<PluginType> types;
    return types;
}

std::deque<Layout>& plugin_layouts() {
    static std::deque<Layout> layouts;
    return layouts;
}

} // namespace

const StructType& add_struct_type(StructType type, std::vector<std::uint32_t> field_sizes) {
    if (find_struct_type(type.name))
        throw LayoutError(fmt::format("struct type '{}' exists already", type.name));
    if (type.fields.empty() || field_sizes.size() != type.fields.size())
        throw LayoutError(fmt::format("struct type '{}': {} fields but {} sizes", type.name,
                                      type.fields.size(), field_sizes.size()));
    return plugin_types().emplace_back(PluginType{std::move(type), std::move(field_sizes)}).type;
}

void add_layout(Layout layout) {
    if (!layout.type || !find_plugin_struct_type(layout.type->name))
        throw LayoutError("a plugin layout must be of a struct type the plugin added");
    if (find_layout(layout.type->name, layout.version))
        throw LayoutError(
            fmt::format("layout {} {} exists already", layout.type->name, layout.version));
    validate_layout(layout);
    if (layout.origin.empty())
        layout.origin = "plugin";
    plugin_layouts().push_back(std::move(layout));
}

const StructType* find_plugin_struct_type(std::string_view name) {
    for (const PluginType& t : plugin_types())
        if (t.type.name == name)
            return &t.type;
    return nullptr;
}

std::optional<std::uint32_t> plugin_field_size(const StructType& type, FieldId field) {
    for (const PluginType& t : plugin_types())
        if (&t.type == &type)
            return field < t.field_sizes.size() ? std::optional(t.field_sizes[field])
                                                : std::nullopt;
    return std::nullopt;
}

const Layout* find_layout(std::string_view struct_name, std::string_view version) {
    if (const Layout* builtin = find_builtin_layout(struct_name, version))
        return builtin;
    for (const Layout& l : plugin_layouts())
        if (l.type->name == struct_name && l.version == version)
            return &l;
    return nullptr;
}

std::vector<const Layout*> known_layouts() {
    std::vector<const Layout*> all;
    for (const Layout& l : builtin_layouts())
        all.push_back(&l);
    for (const Layout& l : plugin_layouts())
        all.push_back(&l);
    return all;
}

} // namespace hitmap::engine
