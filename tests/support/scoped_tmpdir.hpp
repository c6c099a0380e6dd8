#pragma once
// TMPDIR set to a folder for a scope (of this process and the programs it starts), then restored:
// the scratch files of perf and of the collector land there, so what they leave can be seen.
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace hitmap::testing {

class ScopedTmpdir {
public:
    explicit ScopedTmpdir(const std::filesystem::path& dir) {
        std::filesystem::create_directories(dir);
        if (const char* old = std::getenv("TMPDIR"))
            old_ = old;
        ::setenv("TMPDIR", dir.c_str(), 1);
    }
    ~ScopedTmpdir() {
        if (old_)
            ::setenv("TMPDIR", old_->c_str(), 1);
        else
            ::unsetenv("TMPDIR");
    }
    ScopedTmpdir(const ScopedTmpdir&) = delete;
    ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;

private:
    std::optional<std::string> old_;
};

} // namespace hitmap::testing
