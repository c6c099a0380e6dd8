#pragma once
// A private temporary directory (mkdtemp under the system's temp dir) for files a child
// process writes, removed with everything in it when the object goes: after success, failure
// and cancel alike.
#include <filesystem>
#include <string_view>

namespace hitmap::collector {

class ScratchDir {
public:
    explicit ScratchDir(std::string_view prefix); // throws std::system_error
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

} // namespace hitmap::collector
