#include "collector/perf/sysfs.hpp"

#include <fstream>

namespace hitmap::perf {

std::optional<std::string> read_first_line(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    return line;
}

std::filesystem::path pmu_directory(std::string_view pmu, const SystemRoots& roots) {
    return roots.sys / "bus/event_source/devices" / pmu;
}

std::optional<std::uint32_t> pmu_type(std::string_view pmu, const SystemRoots& roots) {
    return read_number<std::uint32_t>(pmu_directory(pmu, roots) / "type");
}

} // namespace hitmap::perf
