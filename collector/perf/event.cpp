#include "collector/perf/event.hpp"

#include "collector/perf/pmu_capabilities.hpp"

#include <linux/perf_event.h>

namespace hitmap::perf {

const std::vector<EventSpec>& known_events() {
    static const std::vector<EventSpec> events = {
        {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "ns"},
        {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "count"},
        {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "count"},
        {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "count"},
        {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "count"},
        {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "count"},
        {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "count"},
        {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "count"},
        {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "count"},
    };
    return events;
}

std::optional<EventSpec> find_event(std::string_view name) {
    for (const EventSpec& event : known_events()) {
        if (event.name == name)
            return event;
    }
    if (const auto colon = name.find(':'); colon != std::string_view::npos) {
        if (const auto id = tracepoint_id(name.substr(0, colon), name.substr(colon + 1)))
            return EventSpec{std::string(name), PERF_TYPE_TRACEPOINT, *id, "count"};
    }
    return std::nullopt;
}

std::vector<EventSpec> default_run_events() {
    std::vector<EventSpec> events;
    for (const char* name : {"task-clock", "context-switches", "cpu-migrations", "page-faults",
                             "cycles", "instructions", "cache-misses"})
        events.push_back(*find_event(name));
    return events;
}

} // namespace hitmap::perf
