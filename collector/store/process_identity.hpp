#pragma once
// Who writes a 'running' run: the pid and that process's start time, so that a run whose
// writer is gone reads as abandoned, and a later process that reuses the pid is not taken
// for the writer.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace hitmap::store {

struct ProcessIdentity {
    std::int64_t pid = 0;
    std::int64_t start_ticks = 0; // /proc/PID/stat field 22: clock ticks after boot
    bool operator==(const ProcessIdentity&) const = default;
};

ProcessIdentity current_process();

// The start time field of a /proc/PID/stat text; nullopt when the text is not one.
std::optional<std::int64_t> parse_start_ticks(std::string_view stat);

// True while the process exists and started at the recorded time. `proc` is replaceable
// for tests.
bool process_alive(const ProcessIdentity& process, const std::filesystem::path& proc = "/proc");

} // namespace hitmap::store
