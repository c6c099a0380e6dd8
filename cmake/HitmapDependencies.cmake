# Every external library of the tree, found once, here, with the one imported target each is
# used by everywhere else:
#   Threads::Threads, nlohmann_json::nlohmann_json, fmt::fmt      the engine and everything above
#   SQLiteCpp, CLI11::CLI11, Boost::context                      the store, the CLI, the simulator
#   PkgConfig::ZSTD, PkgConfig::XXHASH, PkgConfig::LIBELF,       trace files, layout and plugin
#   PkgConfig::LIBBPF, PkgConfig::TRACEEVENT, PkgConfig::TRACEFS  file checks, BTF, tracepoints
#   Qt6::*                                                       the app (HITMAP_BUILD_GUI)
#   GTest::*, benchmark::benchmark                               tests and benchmarks
# Found at the top level, the pkg-config targets are visible in every directory (tests/fuzz
# compiles the collector's sources itself and links their libraries). A tree asks only for what
# it builds: the sanitizer trees (HITMAP_ENGINE_ONLY) need none of the collector's libraries.

find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt REQUIRED)

if(NOT HITMAP_ENGINE_ONLY)
    find_package(SQLiteCpp REQUIRED)
    find_package(CLI11 REQUIRED)
    # The simulator's virtual CPUs are fibers (collector/sim/fiber.cpp).
    find_package(Boost 1.74 REQUIRED COMPONENTS context)
    find_package(PkgConfig REQUIRED)
    # Trace files are zstd frames (collector/trace/trace_file.cpp).
    pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
    # A layout's short name is a hash of its signature (collector/store/layout_table.cpp).
    pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
    # A plugin's ELF headers are read before dlopen maps it (collector/plugins/plugin_file.cpp),
    # and an ELF file's .BTF section is found to tell split BTF from standalone.
    pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
    pkg_check_modules(LIBBPF REQUIRED IMPORTED_TARGET libbpf)
    # Tracepoint formats are parsed by libtraceevent and tracefs is found (and mounted) by
    # libtracefs, as perf and trace-cmd do.
    pkg_check_modules(TRACEEVENT REQUIRED IMPORTED_TARGET libtraceevent)
    pkg_check_modules(TRACEFS REQUIRED IMPORTED_TARGET libtracefs)
    if(HITMAP_BUILD_GUI)
        set(qt_components Core Gui Widgets Charts Svg Concurrent)
        if(HITMAP_BUILD_TESTS)
            list(APPEND qt_components Test)
        endif()
        find_package(Qt6 6.4 REQUIRED COMPONENTS ${qt_components})
    endif()
endif()

if(HITMAP_BUILD_TESTS)
    find_package(GTest REQUIRED)
    if(HITMAP_BUILD_BENCHMARKS)
        find_package(benchmark REQUIRED)
    endif()
endif()
