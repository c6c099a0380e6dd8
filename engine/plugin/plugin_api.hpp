#pragma once
// The workload plugin ABI. A plugin is a shared library that exports two C functions:
//
//   std::uint32_t hitmap_plugin_abi_version(); // the kPluginAbiVersion it was built with
//   void hitmap_plugin_register(hitmap::engine::PluginRegistrar&);
//
// HITMAP_PLUGIN(function) defines both. Through the registrar a plugin adds workloads, struct
// types, their compositions (a struct embedding another), their layouts and probe sites to the
// same registries the built-ins are in, so `run`,
// `list`, `report`, `predict`, `--simulate` and the GUI's run dialog treat them alike.
//
// A plugin is C++ built against these headers: its workloads derive from engine::Workload and
// call the engine's code inside the hitmap executable that loads it (which exports it). So
// kPluginAbiVersion changes with every incompatible change of a header a plugin includes, and
// a plugin must be built with the same compiler and standard library as hitmap, and with default
// symbol visibility, so that the engine's inline thread-locals (the calling thread's trace
// buffer and simulation) bind to the executable's and not to copies of its own. The loader
// (collector/plugins/plugin_loader.hpp) reads the version first and calls nothing else in a
// library of another version.
//
// Before loading, the loader checks the file's ELF headers and dlopens it once in a child
// process, so a damaged or foreign library is refused instead of crashing hitmap: a plugin's
// static initialisers therefore run twice (once in that child) and should have no side effects.
// Whatever a plugin's registration, validate() or run() throws, std::exception or not, fails
// the load or the run rather than the process.
#include "engine/layout/composition.hpp"
#include "engine/layout/layout.hpp"
#include "engine/probe/site.hpp"
#include "engine/workloads/workload.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::engine {

// 3: StructType carries field roles and BTF member aliases; compositions.
inline constexpr std::uint32_t kPluginAbiVersion = 3;

class PluginRegistrar {
public:
    // A workload that lives as long as the process (a static of the plugin).
    void workload(const Workload& w);
    // A struct type with the C size of each field; the returned type is the one to lay out.
    const StructType& struct_type(StructType type, std::vector<std::uint32_t> field_sizes);
    // A struct type that embeds another at named paths (engine/layout/composition.hpp), with
    // the shapes its layouts are composed from; `--layout MEMBER=VERSION` then recomposes it.
    void composition(Composition c);
    // A layout of a struct type this plugin added; `--layout STRUCT=VERSION` finds it.
    void layout(Layout layout);
    // A probe site named as perf would print the function (at most eight per process).
    Site site(std::string_view name);

    // What the plugin added, one line each ("workload NAME", "layout STRUCT VERSION", ...).
    const std::vector<std::string>& added() const { return added_; }

private:
    std::vector<std::string> added_;
};

} // namespace hitmap::engine

#define HITMAP_PLUGIN(register_function)                                                           \
    extern "C" __attribute__((visibility("default"))) std::uint32_t hitmap_plugin_abi_version() {  \
        return ::hitmap::engine::kPluginAbiVersion;                                                \
    }                                                                                              \
    extern "C" __attribute__((visibility("default"))) void hitmap_plugin_register(                 \
        ::hitmap::engine::PluginRegistrar& registrar) {                                            \
        register_function(registrar);                                                              \
    }
