#include "collector/perfc2c/parsed_report.hpp"

#include "collector/support/enum_names.hpp"

#include <algorithm>
#include <array>

namespace hitmap::perfc2c {

namespace {

std::optional<double> find_stat(const std::vector<Stat>& stats, std::string_view label) {
    const auto it =
        std::find_if(stats.begin(), stats.end(), [&](const Stat& s) { return s.label == label; });
    return it == stats.end() ? std::nullopt : std::optional<double>(it->value);
}

} // namespace

std::string_view to_string(PerfLayout layout) {
    static constexpr std::array<support::EnumName<PerfLayout>, 3> names{{
        {PerfLayout::v2016, "2016 layout"},
        {PerfLayout::v2020, "~2020 layout"},
        {PerfLayout::current, "current layout"},
    }};
    return support::name_of(names, layout);
}

std::string_view to_string(Vendor vendor) {
    static constexpr std::array<support::EnumName<Vendor>, 4> names{{
        {Vendor::intel, "Intel"},
        {Vendor::amd, "AMD"},
        {Vendor::arm, "Arm SPE"},
        {Vendor::unknown, "unknown vendor"},
    }};
    return support::name_of(names, vendor);
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
