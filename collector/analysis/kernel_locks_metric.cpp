#include "collector/analysis/kernel_locks_metric.hpp"

namespace hitmap::analysis {

store::Metric kernel_locks_metric(const std::optional<std::string>& unavailable_reason,
                                  std::uint64_t waits) {
    return {kKernelLocksMetric,
            unavailable_reason ? std::nullopt : std::optional<double>(static_cast<double>(waits)),
            "count", !unavailable_reason, unavailable_reason};
}

std::optional<store::Metric> find_kernel_locks_metric(const std::vector<store::Metric>& metrics) {
    for (const auto& m : metrics)
        if (m.name == kKernelLocksMetric)
            return m;
    return std::nullopt;
}

std::optional<std::string> kernel_locks_unavailable(const store::Metric& metric) {
    if (metric.available)
        return std::nullopt;
    return metric.reason.value_or("unavailable");
}

} // namespace hitmap::analysis
