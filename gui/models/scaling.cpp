#include "gui/models/scaling.hpp"

#include <algorithm>
#include <map>

namespace hitmap::gui {

std::vector<ScalingSeries> scaling_series(const std::vector<store::RunRecord>& runs,
                                          const std::string& workload) {
    std::map<std::string, std::map<int, std::vector<double>>> grouped;
    for (const auto& r : runs)
        if (r.workload == workload && r.status == store::RunStatus::complete && r.ops_per_s &&
            r.c2c_source != "predicted")
            grouped[r.variant][r.threads].push_back(*r.ops_per_s);
    std::vector<ScalingSeries> out;
    for (auto& [variant, by_threads] : grouped) {
        ScalingSeries s{QString::fromStdString(variant), {}};
        for (auto& [threads, values] : by_threads) {
            std::sort(values.begin(), values.end());
            const std::size_t n = values.size();
            const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
            s.points.push_back(
                {threads, median, values.front(), values.back(), static_cast<int>(n)});
        }
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace hitmap::gui
