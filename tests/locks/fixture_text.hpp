#pragma once
// Fixture loading and lookups shared by the lock parser tests. Fixtures live in
// ../shared/fixtures/lockstat/ and are read whole; tests skip when ../shared is absent.
#include "collector/locks/lock_stats.hpp"
#include "tests/support/shared_dir.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hitmap::locks::testing {

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline const LockClassStats& find_class(const LockStatReport& report, std::string_view name) {
    for (const auto& stats : report.classes)
        if (stats.name == name)
            return stats;
    throw std::runtime_error("no class named " + std::string(name));
}

} // namespace hitmap::locks::testing

// Declares `text` with the fixture's contents, or skips the test when ../shared is absent.
#define LOAD_LOCK_FIXTURE(name)                                                                    \
    HITMAP_REQUIRE_SHARED(fixture_path, std::string("fixtures/lockstat/") + (name));               \
    const std::string text = ::hitmap::locks::testing::read_text(fixture_path)
