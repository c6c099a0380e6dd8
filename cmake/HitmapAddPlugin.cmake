# hitmap_add_plugin(NAME SOURCE...)
# A workload plugin (engine/plugin/plugin_api.hpp): a MODULE library NAME.so, loaded with
# `hitmap-collect --plugin NAME.so`. The same function builds the tree's test plugins and, from
# the installed package (find_package(hitmap)), a plugin out of tree.
# It links hitmap::plugin only: the engine's headers with the engine's flags. The engine's code
# is the executable's that loads the plugin, which exports it.
function(hitmap_add_plugin name)
    add_library(${name} MODULE ${ARGN})
    target_link_libraries(${name} PRIVATE hitmap::plugin)
    # Default visibility, whatever the project's preset: the engine's inline thread-locals (the
    # trace buffer, the simulation) must bind to the executable's, not to copies of the plugin's.
    # And ISO C++20 as the engine is compiled (CMakeLists.txt), not GNU's dialect.
    set_target_properties(${name} PROPERTIES PREFIX "" CXX_VISIBILITY_PRESET default
                                             VISIBILITY_INLINES_HIDDEN OFF CXX_EXTENSIONS OFF)
endfunction()
