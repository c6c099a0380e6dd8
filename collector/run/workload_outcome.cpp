#include "collector/run/workload_outcome.hpp"

#include <fmt/format.h>

namespace hitmap::collector {

store::Metric metric(std::string name, std::optional<double> value, std::string unit,
                     store::Source source) {
    return store::Metric{std::move(name), value,  std::move(unit), value.has_value(),
                         std::nullopt,    source, std::nullopt};
}

store::RunOutcome workload_outcome(const engine::WorkloadResult& result, store::Source source) {
    store::RunOutcome outcome;
    outcome.status = store::RunStatus::complete;
    outcome.ops = static_cast<std::int64_t>(result.ops);
    if (result.seconds > 0)
        outcome.ops_per_s = static_cast<double>(result.ops) / result.seconds;
    outcome.duration_s = result.seconds;
    for (const auto& [name, value] : result.stats.items())
        outcome.metrics.push_back(metric("engine." + name, value.get<double>(), "count", source));
    for (unsigned t = 0; t < result.ops_per_thread.size(); ++t)
        outcome.metrics.push_back(metric(fmt::format("ops.thread{}", t),
                                         double(result.ops_per_thread[t]), "ops", source));
    return outcome;
}

} // namespace hitmap::collector
