// A plugin whose registration throws something that is not a std::exception: the loader must
// refuse it in one line rather than reach std::terminate.
#include "engine/plugin/plugin_api.hpp"

namespace {

void register_nothing(hitmap::engine::PluginRegistrar&) {
    throw 7;
}

} // namespace

HITMAP_PLUGIN(register_nothing)
