#pragma once
// Loading workload plugins (engine/plugin/plugin_api.hpp): only from paths the user names
// (`--plugin PATH`), before any database is opened, so a refused plugin stores nothing.
#include <filesystem>
#include <stdexcept>

namespace hitmap::plugins {

// A file that cannot be loaded, is not a hitmap plugin, was built for another plugin ABI, or
// whose registration failed; the message names the file and the reason.
class PluginError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Loads the library and lets it register; it stays loaded until the process exits. A path
// without a slash is taken as given (not searched for), so "x.so" means ./x.so.
void load_plugin(const std::filesystem::path& path);

} // namespace hitmap::plugins
