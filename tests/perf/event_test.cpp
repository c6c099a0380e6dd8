#include "collector/perf/event.hpp"
#include "collector/perf/pmu_capabilities.hpp"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <set>

namespace hitmap::perf {
namespace {

TEST(EventRegistry, NamesAreUniqueAndResolve) {
    std::set<std::string> names;
    for (const EventSpec& event : known_events()) {
        EXPECT_TRUE(names.insert(event.name).second) << event.name;
        const auto found = find_event(event.name);
        ASSERT_TRUE(found);
        EXPECT_EQ(found->config, event.config);
    }
}

TEST(EventRegistry, TaskClockIsSoftwareInNanoseconds) {
    const auto event = find_event("task-clock");
    ASSERT_TRUE(event);
    EXPECT_EQ(event->type, PERF_TYPE_SOFTWARE);
    EXPECT_EQ(event->config, PERF_COUNT_SW_TASK_CLOCK);
    EXPECT_EQ(event->unit, "ns");
}

TEST(EventRegistry, HardwareEventsUseTheGenericHardwareType) {
    for (const char* name :
         {"cycles", "instructions", "cache-misses", "cache-references", "branch-misses"}) {
        const auto event = find_event(name);
        ASSERT_TRUE(event) << name;
        EXPECT_EQ(event->type, PERF_TYPE_HARDWARE) << name;
    }
    EXPECT_EQ(find_event("cycles")->config, PERF_COUNT_HW_CPU_CYCLES);
}

TEST(EventRegistry, DefaultRunEventsAreSoftwareThenHardware) {
    std::vector<std::string> names;
    for (const EventSpec& event : default_run_events())
        names.push_back(event.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"task-clock", "context-switches", "cpu-migrations",
                                        "page-faults", "cycles", "instructions", "cache-misses"}));
}

TEST(EventRegistry, UnknownNamesAreAbsent) {
    EXPECT_FALSE(find_event("no-such-event"));
    EXPECT_FALSE(find_event("no_such_category:no_such_tracepoint"));
}

TEST(EventRegistry, TracepointResolvesExactlyWhenTracefsHasIt) {
    const auto id = tracepoint_id("lock", "contention_begin");
    const auto event = find_event("lock:contention_begin");
    ASSERT_EQ(id.has_value(), event.has_value());
    if (event) {
        EXPECT_EQ(event->type, PERF_TYPE_TRACEPOINT);
        EXPECT_EQ(event->config, *id);
    }
}

} // namespace
} // namespace hitmap::perf
