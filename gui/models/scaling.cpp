#include "gui/models/scaling.hpp"

#include <algorithm>
#include <map>

namespace hitmap::gui {

std::vector<ScalingSeries> scaling_series(const std::vector<store::RunRecord>& runs,
                                          const std::string& workload) {
    std::map<std::pair<std::string, store::Source>, std::map<int, std::vector<double>>> grouped;
    for (const auto& r : runs)
        if (r.workload == workload && r.status == store::RunStatus::complete && r.ops_per_s &&
            r.threads &&
            (r.source == store::Source::measured || r.source == store::Source::traced ||
             r.source == store::Source::simulated))
            grouped[{r.variant, r.source}][*r.threads].push_back(*r.ops_per_s);
    std::vector<ScalingSeries> out;
    for (auto& [key, by_threads] : grouped) {
        const auto& [variant, source] = key;
        const QString name = QString::fromStdString(variant);
        ScalingSeries s{name,
                        source,
                        source == store::Source::measured
                            ? name
                            : QStringLiteral("%1 (%2)").arg(
                                  name, QString::fromUtf8(store::to_string(source).data())),
                        {}};
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
