#pragma once
// tests/data/small.db (tests/data/README.md: runs 1-2 page-counter-charge v6.0 and v6.1, runs
// 3-4 res-counter-charge, 2 threads each, traced), shared by the analysis tests.
#include "collector/store/database.hpp"

#include <filesystem>
#include <string>
#include <unistd.h>

namespace hitmap::analysis::test {

// A copy, opened read-write: the committed file is at an older schema and migrates on open.
// The copy's folder goes with the object (Linux lets the open file outlive its name).
struct SmallDb {
    SmallDb()
        : dir(std::filesystem::temp_directory_path() /
              ("hitmap-analysis-" + std::to_string(::getpid())))
        , db(copy()) {}
    ~SmallDb() { std::filesystem::remove_all(dir); }

    store::Database copy() const {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        std::filesystem::copy_file(std::filesystem::path(HITMAP_TEST_DATA) / "small.db",
                                   dir / "small.db");
        return store::Database::open(dir / "small.db");
    }

    std::filesystem::path dir;
    store::Database db;
};

} // namespace hitmap::analysis::test
