# What `cmake --install` puts where, in three components (`--component NAME`; all without):
#   collect  bin/hitmap-collect
#   gui      bin/hitmap and share/applications/hitmap.desktop (HITMAP_BUILD_GUI)
#   sdk      what a workload plugin is built against out of the tree: the engine headers it
#            compiles with (include/hitmap/engine/...), the package config behind
#            find_package(hitmap) (lib/cmake/hitmap: hitmap::plugin, hitmap_add_plugin) and the
#            example plugin as a project (share/hitmap/examples/plugin)
# tests/sdk installs collect and sdk, builds the example against them and runs it.
include(CMakePackageConfigHelpers)

install(TARGETS hitmap-collect RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT collect)
if(HITMAP_BUILD_GUI)
    install(TARGETS hitmap RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gui)
    install(FILES gui/app/hitmap.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
            COMPONENT gui)
endif()

# The plugin ABI and what a workload's run() uses beside it (ProbedObject, BusyWork,
# find_layout), with every header they include: the example plugin's includes.
set(plugin_headers
    engine/plugin/plugin_api.hpp
    engine/probe/probed_object.hpp
    engine/runtime/busy_work.hpp
    engine/layout/layout_registry.hpp)
install(CODE "include(\"${CMAKE_CURRENT_LIST_DIR}/HitmapHeaderClosure.cmake\")
    hitmap_install_header_closure(\"${CMAKE_SOURCE_DIR}\" \"${CMAKE_INSTALL_INCLUDEDIR}/hitmap\"
                                  ${plugin_headers})"
        COMPONENT sdk)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/hitmap)
install(TARGETS hitmap_engine_headers EXPORT hitmapTargets COMPONENT sdk)
install(EXPORT hitmapTargets NAMESPACE hitmap:: DESTINATION ${config_dir} COMPONENT sdk)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/hitmapConfig.cmake.in
    ${CMAKE_BINARY_DIR}/hitmapConfig.cmake INSTALL_DESTINATION ${config_dir})
# Exact: a plugin is built against the headers of the hitmap that loads it (plugin_api.hpp).
write_basic_package_version_file(${CMAKE_BINARY_DIR}/hitmapConfigVersion.cmake
    COMPATIBILITY ExactVersion)
install(FILES ${CMAKE_BINARY_DIR}/hitmapConfig.cmake ${CMAKE_BINARY_DIR}/hitmapConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/HitmapAddPlugin.cmake
        DESTINATION ${config_dir} COMPONENT sdk)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/plugin/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/hitmap/examples/plugin COMPONENT sdk)
