#pragma once
// A whole file as one string: /proc and /sys files, JSON inputs, a tool's captured output.
#include <filesystem>
#include <optional>
#include <string>

namespace hitmap::support {

// The file's bytes as they are (no newline translation); nullopt when it cannot be opened.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

} // namespace hitmap::support
