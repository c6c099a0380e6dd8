#pragma once
// What a plugin file must be before dlopen may map it: an ELF shared object of the running
// executable's class, byte order and machine, whose segments lie inside the file. dlopen maps a
// truncated file's segments past its end and the process dies with SIGBUS when it touches them;
// a library for another machine it reports as "No such file or directory".
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace hitmap::plugins {

// Throws PluginError naming the file and what is wrong with it.
void check_plugin_file(const std::filesystem::path& path);

// The same check on an image in memory, against the running executable: what is wrong, or
// nullopt when dlopen may map it. (The fuzzer's entry point.)
std::optional<std::string> plugin_image_problem(std::span<const std::byte> image);

} // namespace hitmap::plugins
