#pragma once
// Small reads from /sys, /proc and tracefs, where every file is one short line.
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace hitmap::perf {

std::optional<std::string> read_first_line(const std::filesystem::path& file);

// The first line as a decimal number; absent if unreadable or not a number.
template <typename T> std::optional<T> read_number(const std::filesystem::path& file) {
    const auto line = read_first_line(file);
    T value{};
    if (!line ||
        std::from_chars(line->data(), line->data() + line->size(), value).ec != std::errc())
        return std::nullopt;
    return value;
}

// Where /sys and /proc are: the machine's, or a fake tree in tests, so that detection is
// tested on every branch (Intel, AMD, none; tracefs with and without the lock tracepoints).
struct SystemRoots {
    std::filesystem::path sys = "/sys";
    std::filesystem::path proc = "/proc";
};

// <sys>/bus/event_source/devices/<pmu>
std::filesystem::path pmu_directory(std::string_view pmu, const SystemRoots& roots = {});

// The perf_event_attr.type the kernel assigned to a dynamic PMU (cpu, cpu_core, ibs_op, ...).
std::optional<std::uint32_t> pmu_type(std::string_view pmu, const SystemRoots& roots = {});

} // namespace hitmap::perf
