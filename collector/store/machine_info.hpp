#pragma once
// What the store records about the machine a run executed on.
#include <optional>
#include <string>
#include <string_view>

namespace hitmap::store {

struct MachineInfo {
    std::string host{};
    std::optional<std::string> cpu_model{}; // absent where /proc/cpuinfo names none (many ARM)
    std::optional<int> cpu_count{};         // online CPUs; nullopt: unknown (imports)
    std::string kernel{};                   // uname release
    std::optional<int> cacheline_size{};    // nullopt: unknown (imports, unreadable)
    bool operator==(const MachineInfo&) const = default;
};

MachineInfo detect_machine();

// Imported text does not say which machine produced it: every import shares this row, whose
// CPU count and line size are unknown.
MachineInfo imported_machine();

// The first "model name" of a /proc/cpuinfo text.
std::optional<std::string> parse_cpu_model(std::string_view cpuinfo);

} // namespace hitmap::store
