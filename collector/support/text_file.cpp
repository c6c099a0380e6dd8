#include "collector/support/text_file.hpp"

#include <fstream>
#include <sstream>
#include <utility>

namespace hitmap::support {

std::optional<std::string> read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

} // namespace hitmap::support
