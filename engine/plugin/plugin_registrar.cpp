#include "engine/layout/layout_registry.hpp"
#include "engine/plugin/plugin_api.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

void PluginRegistrar::workload(const Workload& w) {
    add_workload(w);
    added_.push_back(fmt::format("workload {}", w.info().name));
}

const StructType& PluginRegistrar::struct_type(StructType type,
                                               std::vector<std::uint32_t> field_sizes) {
    const StructType& stored = add_struct_type(std::move(type), std::move(field_sizes));
    added_.push_back(fmt::format("struct {}", stored.name));
    return stored;
}

void PluginRegistrar::layout(Layout layout) {
    const std::string line =
        fmt::format("layout {} {}", layout.type ? layout.type->name : "?", layout.version);
    add_layout(std::move(layout));
    added_.push_back(line);
}

Site PluginRegistrar::site(std::string_view name) {
    const Site s = add_plugin_site(name);
    added_.push_back(fmt::format("site {}", name));
    return s;
}

} // namespace hitmap::engine
