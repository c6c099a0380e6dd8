#pragma once
// Fixture loading and lookups shared by the lock parser tests. Fixtures live in
// ../shared/fixtures/lockstat/ and are read whole; tests skip when ../shared is absent.
#include "collector/locks/lock_stats.hpp"
#include "tests/support/read_file.hpp"
#include "tests/support/shared_dir.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::locks::testing {

using hitmap::testing::read_file;

// Classes per parsed table, in the order the tables appear.
inline std::vector<std::size_t> class_counts(const std::vector<LockStatReport>& reports) {
    std::vector<std::size_t> counts;
    for (const auto& r : reports)
        counts.push_back(r.classes.size());
    return counts;
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
    const std::string text = ::hitmap::testing::read_file(fixture_path)
