#include "collector/plugins/plugin_loader.hpp"

#include "engine/plugin/plugin_api.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <string>
#include <system_error>

namespace hitmap::plugins {

namespace {

using AbiVersionFn = std::uint32_t (*)();
using RegisterFn = void (*)(engine::PluginRegistrar&);

std::string dl_error() {
    const char* e = dlerror();
    return e ? e : "unknown dlopen error";
}

} // namespace

void load_plugin(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw PluginError(fmt::format("plugin {}: no such file", path.string()));
    // dlopen searches the library path for a bare name; the user named a file.
    const std::filesystem::path file = path.has_parent_path() ? path : "." / path;
    // RTLD_NOW: a plugin with an unresolved symbol fails here, not in the middle of a run.
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        throw PluginError(fmt::format("plugin {}: cannot load: {}", path.string(), dl_error()));
    auto fail = [&](const std::string& why) {
        dlclose(handle);
        throw PluginError(fmt::format("plugin {}: {}", path.string(), why));
    };
    const auto version = reinterpret_cast<AbiVersionFn>(dlsym(handle, "hitmap_plugin_abi_version"));
    const auto register_fn = reinterpret_cast<RegisterFn>(dlsym(handle, "hitmap_plugin_register"));
    if (!version || !register_fn)
        fail("not a hitmap plugin (it does not export hitmap_plugin_abi_version and "
             "hitmap_plugin_register; see HITMAP_PLUGIN in engine/plugin/plugin_api.hpp)");
    if (const std::uint32_t v = version(); v != engine::kPluginAbiVersion)
        fail(fmt::format("built for plugin ABI {}, this hitmap has ABI {}: rebuild it against "
                         "this hitmap's headers",
                         v, engine::kPluginAbiVersion));
    engine::PluginRegistrar registrar;
    try {
        register_fn(registrar);
    } catch (const std::exception& e) {
        // Not dlclose'd: what it registered before the failure points into it. The caller
        // exits with this error, before opening any database.
        throw PluginError(
            fmt::format("plugin {}: registration failed: {}", path.string(), e.what()));
    }
    if (registrar.added().empty())
        fail("registered nothing");
}

} // namespace hitmap::plugins
