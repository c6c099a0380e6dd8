# The libraries and the edges between them (docs/ARCHITECTURE.md draws them).
#
# Each library is one folder. Its headers are reachable as "<folder>/x.hpp" only through its own
# include root, a folder under the build tree holding a link to the library's folder and
# nothing else; a target sees the roots of what it links, so a header of a library it does not
# link (an upward or sideways include) is "No such file" at compile time. The repository root
# is an include path of the tests only.
#
# Every edge between hitmap libraries is listed below; hitmap_check_architecture() stops the
# configure on an edge that is not.

# hitmap_include_root(OUT LIBRARY FOLDER): makes LIBRARY's include root, a folder that holds a
# link to FOLDER and nothing else, and sets OUT to it.
function(hitmap_include_root out library folder)
    set(root ${CMAKE_BINARY_DIR}/include-roots/${library})
    get_filename_component(parent ${root}/${folder} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
    set(${out} ${root} PARENT_SCOPE)
endfunction()

# hitmap_library_root(TARGET FOLDER): TARGET's headers are FOLDER's, reachable from TARGET and
# from whatever links it.
function(hitmap_library_root target folder)
    hitmap_include_root(root ${target} ${folder})
    target_include_directories(${target} PUBLIC ${root})
    set_property(GLOBAL APPEND PROPERTY HITMAP_LIBRARIES ${target})
endfunction()

# Allowed edges: library -> the hitmap libraries it may link (and so include).
set(HITMAP_EDGES_hitmap_support "")
set(HITMAP_EDGES_hitmap_engine "")
set(HITMAP_EDGES_hitmap_schemas "")
set(HITMAP_EDGES_hitmap_perf hitmap_support)
set(HITMAP_EDGES_hitmap_locks hitmap_support)
set(HITMAP_EDGES_hitmap_c2c hitmap_engine hitmap_support)
set(HITMAP_EDGES_hitmap_btf hitmap_engine)
set(HITMAP_EDGES_hitmap_sim hitmap_engine hitmap_c2c hitmap_support)
set(HITMAP_EDGES_hitmap_store hitmap_schemas hitmap_locks hitmap_c2c hitmap_engine hitmap_support)
set(HITMAP_EDGES_hitmap_perfc2c hitmap_locks hitmap_store hitmap_support)
set(HITMAP_EDGES_hitmap_analysis hitmap_store hitmap_c2c hitmap_trace hitmap_btf hitmap_locks
    hitmap_engine hitmap_support)
set(HITMAP_EDGES_hitmap_report hitmap_analysis hitmap_store hitmap_c2c hitmap_engine
    hitmap_support)
set(HITMAP_EDGES_hitmap_layoutopt hitmap_report hitmap_analysis hitmap_store hitmap_c2c
    hitmap_engine)
set(HITMAP_EDGES_hitmap_trace hitmap_support hitmap_engine)
set(HITMAP_EDGES_hitmap_plugins hitmap_engine hitmap_support)
set(HITMAP_EDGES_hitmap_run hitmap_trace hitmap_analysis hitmap_btf hitmap_c2c hitmap_locks
    hitmap_perf hitmap_perfc2c hitmap_sim hitmap_store hitmap_engine hitmap_support)
set(HITMAP_EDGES_hitmap_reproduce hitmap_run hitmap_report hitmap_sim hitmap_locks hitmap_store
    hitmap_engine hitmap_support)
set(HITMAP_EDGES_hitmap_cli_options hitmap_run hitmap_btf)
set(HITMAP_EDGES_hitmap_gui_models hitmap_report hitmap_analysis hitmap_btf hitmap_store)
set(HITMAP_EDGES_hitmap_gui_charts hitmap_gui_models)
set(HITMAP_EDGES_hitmap_gui_views hitmap_gui_charts hitmap_gui_models)
set(HITMAP_EDGES_hitmap_gui_export hitmap_gui_views hitmap_gui_charts hitmap_gui_models)
set(HITMAP_EDGES_hitmap_gui_app hitmap_gui_export hitmap_gui_views hitmap_gui_charts
    hitmap_gui_models)

# Stops the configure on an edge between hitmap libraries that the list above does not allow
# (executables and tests may link any library).
function(hitmap_check_architecture)
    get_property(libraries GLOBAL PROPERTY HITMAP_LIBRARIES)
    foreach(library ${libraries})
        if(NOT DEFINED HITMAP_EDGES_${library})
            message(FATAL_ERROR "${library} is not in cmake/HitmapArchitecture.cmake's edges")
        endif()
        get_target_property(links ${library} LINK_LIBRARIES)
        foreach(link ${links})
            if(link IN_LIST libraries AND NOT link IN_LIST HITMAP_EDGES_${library})
                message(FATAL_ERROR "${library} links ${link}: not an edge of the architecture "
                                    "(cmake/HitmapArchitecture.cmake, docs/ARCHITECTURE.md)")
            endif()
        endforeach()
    endforeach()
endfunction()
