# hitmap_add_gtest(NAME SOURCES ... LIBS ... [LABELS ...] [DEFINITIONS ...] [RUN_SERIAL] [E2E])
# One GoogleTest executable registered with ctest; tests are discovered when ctest runs,
# not at build time, so a crashing test cannot break the build.
# E2E: the binary runs hitmap-collect (from bin_dir(), tests/support/shared_dir.hpp) and reads
# what it wrote; none of its own code is under test. Label `e2e`. Built only where
# HITMAP_BUILD_E2E_TESTS is on: a sanitizer tree runs the main tree's binaries against its own
# instrumented hitmap-collect (HITMAP_BIN_DIR), instead of compiling 14 of them again (a third of
# the ASan tree's build time).
# Label `threads`: the binary runs hitmap's own threads (the engine's worker pool, the run
# executor through hitmap-collect, the host machine's ping-pong). Only these are built and run
# in the ThreadSanitizer tree (target hitmap_threaded_tests, scripts/run-tests): the rest is
# single-threaded code TSan has nothing to say about, and building it there cost CI minutes.
function(hitmap_add_gtest name)
    cmake_parse_arguments(ARG "RUN_SERIAL;E2E" "" "SOURCES;LIBS;LABELS;DEFINITIONS" ${ARGN})
    if(ARG_E2E)
        if(NOT HITMAP_BUILD_E2E_TESTS)
            return()
        endif()
        list(APPEND ARG_LABELS e2e)
    endif()
    include(GoogleTest)
    add_executable(${name} ${ARG_SOURCES})
    if(ARG_E2E)
        add_dependencies(${name} hitmap-collect)
    endif()
    if("threads" IN_LIST ARG_LABELS)
        add_dependencies(hitmap_threaded_tests ${name})
    endif()
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
    target_compile_definitions(${name} PRIVATE
        HITMAP_SHARED_DIR_DEFAULT="${HITMAP_SHARED_DIR}"
        HITMAP_BIN_DIR="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}" ${ARG_DEFINITIONS})
    # RUN_SERIAL: tests whose results depend on threads really running in parallel (the
    # coherence traces of a 2-CPU machine) must not share the CPUs with other tests.
    set(serial FALSE)
    if(ARG_RUN_SERIAL)
        set(serial TRUE)
    endif()
    # A second label must reach the discovered tests as part of one LABELS value. The list
    # passes three argument parsings on its way (gtest_discover_tests, the generated include
    # file, gtest_discover_tests_impl in CMake 3.25), each removing a level of escaping: seven
    # backslashes arrive as "LABELS [==[sim;seed]==]". Unescaped, "seed" was read as a property
    # name and SeedProjection carried the label `sim` only (so the TSan tree ran it).
    string(REPLACE ";" [=[\\\\\\\;]=] labels "${ARG_LABELS}")
    gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
        PROPERTIES LABELS "${labels}" RUN_SERIAL ${serial})
endfunction()

# hitmap_add_plugin: the workload plugins tests load into the real hitmap-collect.
include(${CMAKE_CURRENT_LIST_DIR}/HitmapAddPlugin.cmake)
