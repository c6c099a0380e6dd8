#pragma once
// Named perf events: the generic software and hardware events a run counts, plus tracepoints
// ("lock:contention_begin") resolved through tracefs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::perf {

struct EventSpec {
    std::string name;
    std::uint32_t type = 0; // PERF_TYPE_*
    std::uint64_t config = 0;
    std::string unit; // "ns" for task-clock (perf prints msec), "count" otherwise
};

// Every built-in named event, software first.
const std::vector<EventSpec>& known_events();

// A built-in name, or "category:name" for a tracepoint that tracefs exposes here.
std::optional<EventSpec> find_event(std::string_view name);

// What every run counts: the four software events, then cycles, instructions, cache-misses.
std::vector<EventSpec> default_run_events();

} // namespace hitmap::perf
