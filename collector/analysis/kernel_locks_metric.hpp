#pragma once
// Where a run keeps what `run --kernel-locks` found: a metric with the number of kernel lock
// waits or, without a value, the reason there are none. Written by the collector's run
// (collector/run/kernel_locks), read by reports and the GUI.
#include "collector/store/records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

inline constexpr const char* kKernelLocksMetric = "kernel_locks.contentions";

store::Metric kernel_locks_metric(const std::optional<std::string>& unavailable_reason,
                                  std::uint64_t waits);
// The run's metric when it asked for kernel locks.
std::optional<store::Metric> find_kernel_locks_metric(const std::vector<store::Metric>& metrics);
// The reason kernel lock waits are missing; nullopt when they were collected.
std::optional<std::string> kernel_locks_unavailable(const store::Metric& metric);

} // namespace hitmap::analysis
