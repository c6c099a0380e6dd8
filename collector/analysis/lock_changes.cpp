#include "collector/analysis/lock_changes.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace hitmap::analysis {

namespace {

std::string duration_label(std::size_t bucket) {
    const double ns = bucket == 0 ? 0 : static_cast<double>(std::uint64_t{1} << bucket);
    return ns < 1e3   ? fmt::format("{:g}ns", ns)
           : ns < 1e6 ? fmt::format("{:.3g}µs", ns / 1e3)
           : ns < 1e9 ? fmt::format("{:.3g}ms", ns / 1e6)
                      : fmt::format("{:.3g}s", ns / 1e9);
}

bool busier(const std::optional<double>& x, const std::optional<double>& y) {
    return x.value_or(0) > y.value_or(0);
}

} // namespace

std::vector<LockTotal> lock_totals(const std::vector<store::LockData>& tables) {
    std::map<std::string, LockTotal> by_name;
    for (const auto& t : tables)
        for (const auto& c : t.report.classes)
            for (const auto* side : {&c.write, &c.read})
                if (*side) {
                    LockTotal& x = by_name[c.name];
                    x.name = c.name;
                    if (const auto& v = (*side)->contentions)
                        x.contentions = x.contentions.value_or(0) + static_cast<double>(*v);
                    if (const auto& v = (*side)->wait.total_ns)
                        x.wait_us = x.wait_us.value_or(0) + static_cast<double>(*v) / 1000.0;
                }
    std::vector<LockTotal> out;
    for (auto& [name, t] : by_name)
        out.push_back(std::move(t));
    std::stable_sort(out.begin(), out.end(), [](const LockTotal& x, const LockTotal& y) {
        return busier(x.contentions, y.contentions);
    });
    return out;
}

std::optional<double> LockChange::change_percent() const {
    if (!contentions_before || !contentions_after || *contentions_before <= 0)
        return std::nullopt;
    return (*contentions_after / *contentions_before - 1) * 100;
}

std::vector<LockChange> lock_changes(const std::vector<store::LockData>& before,
                                     const std::vector<store::LockData>& after) {
    std::map<std::string, LockChange> merged;
    for (const LockTotal& t : lock_totals(before)) {
        auto& r = merged[t.name];
        r.name = t.name;
        r.contentions_before = t.contentions;
        r.wait_before_us = t.wait_us;
    }
    for (const LockTotal& t : lock_totals(after)) {
        auto& r = merged[t.name];
        r.name = t.name;
        r.contentions_after = t.contentions;
        r.wait_after_us = t.wait_us;
    }
    std::vector<LockChange> rows;
    for (auto& [name, r] : merged)
        rows.push_back(std::move(r));
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
        return busier(std::max(x.contentions_before, x.contentions_after),
                      std::max(y.contentions_before, y.contentions_after));
    });
    return rows;
}

std::vector<HistogramBar> histogram_bars(const locks::WaitHistogram& histogram) {
    const auto& c = histogram.counts;
    const std::uint64_t peak = *std::max_element(c.begin(), c.end());
    std::vector<HistogramBar> bars;
    if (peak == 0)
        return bars;
    std::size_t first = c.size(), last = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i] > 0 && c[i] * 1000 >= peak) {
            first = std::min(first, i);
            last = i;
        }
    double below = 0, above = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        if (i < first)
            below += static_cast<double>(c[i]);
        else if (i > last)
            above += static_cast<double>(c[i]);
    if (below > 0)
        bars.push_back({"<" + duration_label(first), below});
    for (std::size_t i = first; i <= last; ++i)
        bars.push_back({duration_label(i), static_cast<double>(c[i])});
    if (above > 0)
        bars.push_back({"≥" + duration_label(last + 1), above});
    return bars;
}

} // namespace hitmap::analysis
