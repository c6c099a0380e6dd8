#include "collector/run/scratch_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>

namespace hitmap::collector {

ScratchDir::ScratchDir(std::string_view prefix) {
    std::string name = (std::filesystem::temp_directory_path() / prefix).string() + "-XXXXXX";
    if (!::mkdtemp(name.data()))
        throw std::system_error(errno, std::generic_category(), "mkdtemp " + name);
    path_ = name;
}

ScratchDir::~ScratchDir() {
    std::error_code ignored; // a destructor reports nothing: what is left is in the temp dir
    std::filesystem::remove_all(path_, ignored);
}

} // namespace hitmap::collector
