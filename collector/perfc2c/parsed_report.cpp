#include "collector/perfc2c/parsed_report.hpp"

#include <algorithm>

namespace hitmap::perfc2c {

namespace {

std::optional<double> find_stat(const std::vector<Stat>& stats, std::string_view label) {
    const auto it =
        std::find_if(stats.begin(), stats.end(), [&](const Stat& s) { return s.label == label; });
    return it == stats.end() ? std::nullopt : std::optional<double>(it->value);
}

} // namespace

std::string_view to_string(PerfLayout layout) {
    switch (layout) {
    case PerfLayout::v2016:
        return "2016 layout";
    case PerfLayout::v2020:
        return "~2020 layout";
    case PerfLayout::current:
        return "current layout";
    }
    return "?";
}

std::string_view to_string(Vendor vendor) {
    switch (vendor) {
    case Vendor::intel:
        return "Intel";
    case Vendor::amd:
        return "AMD";
    case Vendor::arm:
        return "Arm SPE";
    case Vendor::unknown:
        return "unknown vendor";
    }
    return "?";
}

std::optional<double> C2cReport::trace_stat(std::string_view label) const {
    return find_stat(trace, label);
}

std::optional<double> C2cReport::shared_stat(std::string_view label) const {
    return find_stat(shared, label);
}

std::uint64_t C2cReport::total_hitm() const {
    return static_cast<std::uint64_t>(trace_stat("Load Local HITM").value_or(0) +
                                      trace_stat("Load Remote HITM").value_or(0));
}

} // namespace hitmap::perfc2c
