#pragma once
// Golden files, as Hotspot keeps them: when the output differs, it is written beside the golden
// file as NAME.actual and the failure shows `diff -u NAME NAME.actual`, so the whole change is
// in the log and one `mv` accepts it. HITMAP_UPDATE_GOLDEN=1 rewrites the golden files (after a
// deliberate format change; review the diff).
#include "tests/support/read_file.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace hitmap::testing {

inline void expect_golden(const std::filesystem::path& golden, const std::string& actual) {
    auto actual_path = golden;
    actual_path += ".actual";
    if (std::getenv("HITMAP_UPDATE_GOLDEN")) {
        std::filesystem::create_directories(golden.parent_path());
        std::ofstream(golden, std::ios::binary) << actual;
        std::filesystem::remove(actual_path);
        return;
    }
    ASSERT_TRUE(std::filesystem::exists(golden))
        << golden << " is missing (HITMAP_UPDATE_GOLDEN=1 writes it)";
    if (read_file(golden) == actual) {
        std::filesystem::remove(actual_path);
        return;
    }
    std::ofstream(actual_path, std::ios::binary) << actual;
    std::string diff;
    const std::string command =
        "diff -u '" + golden.string() + "' '" + actual_path.string() + "' 2>&1";
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        std::array<char, 4096> chunk{};
        for (std::size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0;)
            diff.append(chunk.data(), n);
        ::pclose(pipe);
    }
    ADD_FAILURE() << golden.filename().string() << " differs; the output is in " << actual_path
                  << "\n"
                  << diff;
}

} // namespace hitmap::testing
