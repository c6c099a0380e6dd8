# hitmap_add_gtest(NAME SOURCES ... LIBS ... [LABELS ...] [RUN_SERIAL])
# One GoogleTest executable registered with ctest; tests are discovered when ctest runs,
# not at build time, so a crashing test cannot break the build.
# Label `threads`: the binary runs hitmap's own threads (the engine's worker pool, the run
# executor through hitmap-collect, the host machine's ping-pong). Only these are built and run
# in the ThreadSanitizer tree (target hitmap_threaded_tests, scripts/run-tests): the rest is
# single-threaded code TSan has nothing to say about, and building it there cost CI minutes.
function(hitmap_add_gtest name)
    cmake_parse_arguments(ARG "RUN_SERIAL" "" "SOURCES;LIBS;LABELS" ${ARGN})
    find_package(GTest REQUIRED)
    include(GoogleTest)
    add_executable(${name} ${ARG_SOURCES})
    if("threads" IN_LIST ARG_LABELS)
        add_dependencies(hitmap_threaded_tests ${name})
    endif()
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
    target_compile_definitions(${name} PRIVATE
        HITMAP_SHARED_DIR_DEFAULT="${HITMAP_SHARED_DIR}"
        HITMAP_BIN_DIR="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}")
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
