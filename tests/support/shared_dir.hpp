#pragma once
// The one configurable path to ../shared (fixtures, seeds, reference). Tests that need it
// call HITMAP_REQUIRE_SHARED(path) and are skipped with a message where it is absent.
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace hitmap::testing {

inline std::filesystem::path shared_dir() {
    if (const char* env = std::getenv("HITMAP_SHARED_DIR"); env && *env)
        return env;
    return HITMAP_SHARED_DIR_DEFAULT;
}

// Where hitmap-collect is: this build's, or HITMAP_BIN_DIR's (scripts/run-tests points the
// main tree's end-to-end tests at a sanitizer tree's binary).
inline std::filesystem::path bin_dir() {
    if (const char* env = std::getenv("HITMAP_BIN_DIR"); env && *env)
        return env;
    return HITMAP_BIN_DIR;
}

} // namespace hitmap::testing

#define HITMAP_REQUIRE_SHARED(var, relative)                                                       \
    const std::filesystem::path var = ::hitmap::testing::shared_dir() / (relative);                \
    if (!std::filesystem::exists(var))                                                             \
    GTEST_SKIP() << "shared data not found at " << var                                             \
                 << " (set HITMAP_SHARED_DIR to the shared/ folder)"
