#include "collector/run/run_request.hpp"

#include "collector/support/enum_names.hpp"

#include <array>

namespace hitmap::collector {

namespace {
constexpr std::array<support::EnumName<C2cMode>, 5> kC2cModeNames{{
    {C2cMode::off, "off"},
    {C2cMode::automatic, "auto"},
    {C2cMode::software, "software"},
    {C2cMode::hardware, "hardware"},
    {C2cMode::perf, "perf"},
}};
} // namespace

std::optional<C2cMode> c2c_mode_named(std::string_view name) {
    return support::value_named(kC2cModeNames, name);
}

std::vector<PlannedRun> plan_runs(const RunRequest& request) {
    std::vector<PlannedRun> plan;
    for (const std::string& variant : request.variants)
        for (unsigned threads : request.threads)
            for (unsigned rep = 0; rep < request.repeat; ++rep)
                plan.push_back({variant, threads, rep});
    return plan;
}

} // namespace hitmap::collector
