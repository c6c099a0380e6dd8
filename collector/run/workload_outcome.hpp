#pragma once
// What a finished workload run stores beside its row: throughput and the engine's own counters
// (per-thread operations, stock hits, ...) as metrics of one source. The run executor and
// `predict --simulate --store` finish runs through it.
#include "collector/store/records.hpp"
#include "engine/workloads/workload.hpp"

namespace hitmap::collector {

// A metric of `source`; unavailable (NULL) when `value` is empty.
store::Metric metric(std::string name, std::optional<double> value, std::string unit,
                     store::Source source);

// A complete outcome: ops, ops/s (unknown when no time passed), duration, engine.* and
// ops.threadN metrics.
store::RunOutcome workload_outcome(const engine::WorkloadResult& result, store::Source source);

} // namespace hitmap::collector
