#include "collector/analysis/scaling.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace hitmap::analysis {

namespace {

std::optional<int> stops_growing_at(const std::vector<ScalingPoint>& points) {
    // Two points are a slope, not a curve: 1 thread at 10 and 2 at 9.8 said "stops growing
    // at 1" of a run pair that says nothing about where growth ends.
    if (points.size() < 3)
        return std::nullopt;
    double highest = 0;
    for (const ScalingPoint& p : points)
        highest = std::max(highest, p.median);
    for (std::size_t i = 0; i < points.size(); ++i)
        if (points[i].median >= 0.95 * highest)
            return i + 1 < points.size() ? std::optional<int>(points[i].threads) : std::nullopt;
    return std::nullopt;
}

std::string series_name(const std::string& variant, store::Source source,
                        const std::string& machine) {
    return machine.empty() ? fmt::format("{} ({})", variant, store::to_string(source))
                           : fmt::format("{} ({} {})", variant, store::to_string(source), machine);
}

} // namespace

std::vector<ScalingSeries> scaling_series(const std::vector<store::RunRecord>& runs,
                                          const std::string& workload) {
    using Key = std::tuple<std::string, store::Source, std::string>; // variant, source, machine
    std::map<Key, std::map<int, std::vector<double>>> grouped;
    for (const auto& r : runs)
        if (r.workload == workload && r.status == store::RunStatus::complete && r.ops_per_s &&
            r.threads &&
            (r.source == store::Source::measured || r.source == store::Source::traced ||
             r.source == store::Source::simulated))
            grouped[{r.variant, r.source, r.simulated_machine.value_or("")}][*r.threads].push_back(
                *r.ops_per_s);
    std::vector<ScalingSeries> out;
    for (auto& [key, by_threads] : grouped) {
        const auto& [variant, source, machine] = key;
        ScalingSeries s{variant, source, machine, series_name(variant, source, machine), {}, {}};
        for (auto& [threads, values] : by_threads) {
            std::sort(values.begin(), values.end());
            const std::size_t n = values.size();
            const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
            s.points.push_back(
                {threads, median, values.front(), values.back(), static_cast<int>(n)});
        }
        s.stops_growing_at = stops_growing_at(s.points);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace hitmap::analysis
