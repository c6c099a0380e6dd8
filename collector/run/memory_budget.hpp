#pragma once
// What a run will hold in memory, checked against what the machine has before it starts: a run
// of 4096 threads with 64 MiB trace buffers each would otherwise be OOM-killed minutes in.
#include "collector/run/run_request.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hitmap::collector {

class InsufficientMemory : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct MemoryEstimate {
    std::uint64_t bytes = 0;
    std::string breakdown; // "4096 threads × 64.0 MiB trace buffers + ..."
};

// An estimate for the largest planned run of the request: the trace buffers (prefaulted, so
// resident) when it traces, plus a per-thread allowance for the worker's stack and engine state.
MemoryEstimate estimate_run_memory(const RunRequest& request, bool traced);

// MemAvailable of a /proc/meminfo text, in bytes.
std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo);
std::optional<std::uint64_t> mem_available(); // this machine's, if /proc/meminfo says

// Throws InsufficientMemory with both figures when the estimate exceeds 90 % of `available`.
// Unknown availability is not a reason to refuse.
void check_memory(const MemoryEstimate& need, std::optional<std::uint64_t> available);

} // namespace hitmap::collector
