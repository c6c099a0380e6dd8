# hitmap_install_header_closure(SOURCE_DIR DESTINATION HEADER...)
# Installs the HEADERs (paths under SOURCE_DIR, "engine/plugin/plugin_api.hpp") and every
# header of the tree they include, transitively, to CMAKE_INSTALL_PREFIX/DESTINATION at the
# same paths, so that the installed headers compile on their own. Run at install time
# (cmake/HitmapInstall.cmake): a header's new #include is followed without reconfiguring.
# The tree includes its own headers by their path from the root, in quotes; an included file
# the tree does not have is an error rather than an SDK that fails to compile.
function(hitmap_install_header_closure source_dir destination)
    set(pending ${ARGN})
    set(closure "")
    while(pending)
        list(POP_FRONT pending header)
        # list(FIND), not IN_LIST: an install script runs without the project's policies.
        list(FIND closure ${header} seen)
        if(seen GREATER -1)
            continue()
        endif()
        if(NOT EXISTS ${source_dir}/${header})
            message(FATAL_ERROR "hitmap SDK: ${header} is included but not in ${source_dir}")
        endif()
        list(APPEND closure ${header})
        file(STRINGS ${source_dir}/${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
        foreach(line IN LISTS includes)
            string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" included "${line}")
            list(APPEND pending ${included})
        endforeach()
    endwhile()
    foreach(header IN LISTS closure)
        get_filename_component(dir ${header} DIRECTORY)
        file(INSTALL ${source_dir}/${header} DESTINATION ${CMAKE_INSTALL_PREFIX}/${destination}/${dir})
    endforeach()
    # file(INSTALL) lists what it wrote in this scope; install_manifest.txt is written from the
    # script's.
    set(CMAKE_INSTALL_MANIFEST_FILES ${CMAKE_INSTALL_MANIFEST_FILES} PARENT_SCOPE)
endfunction()
