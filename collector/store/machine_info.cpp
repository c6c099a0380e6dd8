#include "collector/store/machine_info.hpp"

#include "collector/support/text_file.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace hitmap::store {
namespace {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::string host_name() {
    std::array<char, 256> buf{};
    if (gethostname(buf.data(), buf.size() - 1) != 0)
        return "localhost";
    return buf.data();
}

std::string kernel_release() {
    utsname u{};
    return uname(&u) == 0 ? u.release : "";
}

int online_cpus() {
    if (const long n = sysconf(_SC_NPROCESSORS_ONLN); n > 0)
        return static_cast<int>(n);
    return std::max(1u, std::thread::hardware_concurrency());
}

// glibc reports 0 for the line size on some CPUs and in some containers; /sys usually knows.
// Where neither does (a VM whose cacheinfo is not populated, and glibc without CPUID's answer)
// the size is unknown, not the common 64.
std::optional<int> cacheline_size() {
    if (const long n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE); n > 0)
        return static_cast<int>(n);
    std::ifstream sys("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size");
    if (int n = 0; sys >> n && n > 0)
        return n;
    return std::nullopt;
}

} // namespace

std::optional<std::string> parse_cpu_model(std::string_view cpuinfo) {
    constexpr std::string_view key = "model name";
    while (!cpuinfo.empty()) {
        const auto eol = cpuinfo.find('\n');
        const std::string_view line = cpuinfo.substr(0, eol);
        cpuinfo.remove_prefix(eol == std::string_view::npos ? cpuinfo.size() : eol + 1);
        const auto colon = line.find(':');
        if (colon == std::string_view::npos || trim(line.substr(0, colon)) != key)
            continue;
        if (const auto model = trim(line.substr(colon + 1)); !model.empty())
            return std::string(model);
    }
    return std::nullopt;
}

MachineInfo detect_machine() {
    return {.host = host_name(),
            .cpu_model = parse_cpu_model(support::read_text_file("/proc/cpuinfo").value_or("")),
            .cpu_count = online_cpus(),
            .kernel = kernel_release(),
            .cacheline_size = cacheline_size()};
}

MachineInfo imported_machine() {
    return {.host = "unknown (imported)",
            .cpu_model = std::nullopt,
            .cpu_count = std::nullopt,
            .kernel = "unknown",
            .cacheline_size = std::nullopt};
}

} // namespace hitmap::store
