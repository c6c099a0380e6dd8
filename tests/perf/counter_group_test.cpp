#include "collector/perf/counter_group.hpp"
#include "collector/perf/pmu_capabilities.hpp"

#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

namespace hitmap::perf {
namespace {

// Work the optimiser cannot drop; enough for the task clock to advance by far more than 0 ns.
std::uint64_t busy_work() {
    volatile std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < 5'000'000; ++i)
        sum = sum + i;
    return sum;
}

// Fresh anonymous pages fault on first touch.
void touch_fresh_pages() {
    std::vector<char> pages(8 << 20);
    for (std::size_t i = 0; i < pages.size(); i += 4096)
        pages[i] = 1;
    volatile char sink = pages[4096];
    (void)sink;
}

const CounterValue& named(const std::vector<CounterValue>& values, std::string_view name) {
    for (const CounterValue& value : values) {
        if (value.name == name)
            return value;
    }
    throw std::runtime_error("no counter " + std::string(name));
}

void expect_value_xor_reason(const std::vector<CounterValue>& values) {
    for (const CounterValue& value : values) {
        EXPECT_NE(value.value.has_value(), value.unavailable_reason.has_value()) << value.name;
        if (value.unavailable_reason) {
            EXPECT_FALSE(value.unavailable_reason->empty()) << value.name;
        }
    }
}

TEST(CounterGroup, SoftwareCountersCountTheCallingThread) {
    CounterGroup group;
    group.enable();
    busy_work();
    touch_fresh_pages();
    group.disable();
    const auto values = group.read();

    ASSERT_EQ(values.size(), default_run_events().size());
    expect_value_xor_reason(values);
    for (const char* name : {"task-clock", "page-faults"})
        ASSERT_TRUE(named(values, name).value)
            << name << ": " << *named(values, name).unavailable_reason;
    EXPECT_GT(*named(values, "task-clock").value, 0.0);
    EXPECT_EQ(named(values, "task-clock").unit, "ns");
    for (const char* name : {"context-switches", "cpu-migrations"}) {
        const CounterValue& kernel_event = named(values, name);
        if (group.user_only()) {
            EXPECT_FALSE(kernel_event.value) << name << " reads 0 when counting user mode only";
        } else {
            EXPECT_GE(kernel_event.value.value_or(-1), 0.0) << name;
        }
    }
    EXPECT_GE(*named(values, "page-faults").value, 1.0);
}

TEST(CounterGroup, HardwareCountersHaveAValueOrAReason) {
    const PmuCapabilities pmu = detect_pmu();
    CounterGroup group;
    group.enable();
    busy_work();
    group.disable();
    const auto values = group.read();

    expect_value_xor_reason(values);
    const CounterValue& cycles = named(values, "cycles");
    EXPECT_EQ(cycles.value.has_value(), pmu.hardware_counters)
        << cycles.unavailable_reason.value_or("") << " vs " << pmu.summary();
    if (cycles.value) {
        EXPECT_GT(*cycles.value, 0.0);
    }
}

TEST(CounterGroup, ValuesFollowTheRequestedEventsEvenWithoutTaskClock) {
    CounterGroup group({*find_event("page-faults"), *find_event("branch-misses")});
    group.enable();
    touch_fresh_pages();
    group.disable();
    const auto values = group.read();
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0].name, "page-faults");
    EXPECT_EQ(values[1].name, "branch-misses");
    expect_value_xor_reason(values);
    ASSERT_TRUE(values[0].value);
    EXPECT_GE(*values[0].value, 1.0);
}

TEST(CounterGroup, NeverEnabledGroupReadsZero) {
    const CounterGroup group({*find_event("task-clock")});
    const auto values = group.read();
    ASSERT_EQ(values.size(), 1u);
    ASSERT_TRUE(values[0].value);
    EXPECT_EQ(*values[0].value, 0.0);
    EXPECT_FALSE(values[0].scaled);
}

TEST(CounterGroup, CountsAnotherThreadByTid) {
    std::atomic<pid_t> tid{0};
    std::atomic<bool> go{false};
    std::atomic<bool> done{false};
    std::thread worker([&] {
        tid = ::gettid();
        while (!go)
            std::this_thread::yield();
        busy_work();
        done = true;
    });
    while (tid == 0)
        std::this_thread::yield();

    CounterGroup group({*find_event("task-clock")}, tid);
    group.enable();
    go = true;
    while (!done)
        std::this_thread::yield();
    group.disable();
    worker.join();

    const auto values = group.read();
    ASSERT_TRUE(values[0].value) << *values[0].unavailable_reason;
    EXPECT_GT(*values[0].value, 0.0);
}

// As an unprivileged user the kernel's perf_event_paranoid decides: at 2 the group counts user
// mode only and says so per counter; at 3 and above everything is unavailable with the reason.
TEST(CounterGroup, UnprivilegedUserGetsUserModeCountsOrReasons) {
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root to drop to an unprivileged user";
    const int paranoid = perf_event_paranoid().value_or(2);
    ::testing::FLAGS_gtest_death_test_style = "threadsafe";
    EXPECT_EXIT(
        {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                std::_Exit(2);
            CounterGroup group;
            group.enable();
            busy_work();
            group.disable();
            const auto values = group.read();
            const CounterValue& clock = named(values, "task-clock");
            const CounterValue& switches = named(values, "context-switches");
            bool ok = true;
            if (paranoid <= 1) {
                ok = !group.user_only() && clock.value && switches.value;
            } else if (paranoid == 2) {
                ok = group.user_only() && clock.value && *clock.value > 0 && !switches.value &&
                     switches.unavailable_reason->find("perf_event_paranoid = 2") !=
                         std::string::npos;
            } else {
                ok = !clock.value &&
                     clock.unavailable_reason->find("perf_event_paranoid") != std::string::npos;
            }
            std::_Exit(ok ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST(CounterGroup, IsMovableForPerThreadStorage) {
    std::vector<std::optional<CounterGroup>> groups(2);
    groups[0].emplace(std::vector<EventSpec>{*find_event("task-clock")});
    groups.resize(8); // relocates the open group
    groups[0]->enable();
    busy_work();
    groups[0]->disable();
    EXPECT_GT(*groups[0]->read()[0].value, 0.0);
}

TEST(ScaledValue, ExtrapolatesMultiplexedCounts) {
    const EventSpec cycles = *find_event("cycles");

    const CounterValue full = scaled_value(cycles, 100, 10, 10);
    EXPECT_EQ(full.value, 100.0);
    EXPECT_FALSE(full.scaled);

    const CounterValue half = scaled_value(cycles, 100, 20, 10);
    EXPECT_EQ(half.value, 200.0);
    EXPECT_TRUE(half.scaled);

    const CounterValue never = scaled_value(cycles, 0, 20, 0);
    EXPECT_FALSE(never.value);
    ASSERT_TRUE(never.unavailable_reason);
    EXPECT_NE(never.unavailable_reason->find("never scheduled"), std::string::npos);
}

CounterValue available(std::string name, double value, bool scaled = false) {
    return CounterValue{std::move(name), "count", value, std::nullopt, scaled};
}

CounterValue missing(std::string name, std::string reason) {
    return CounterValue{std::move(name), "count", std::nullopt, std::move(reason), false};
}

TEST(SumAcrossThreads, AddsAvailableCountersAndKeepsScaling) {
    const std::vector<std::vector<CounterValue>> threads = {
        {available("task-clock", 10), available("cycles", 100)},
        {available("task-clock", 5), available("cycles", 50, true)},
    };
    const auto totals = sum_across_threads(threads);
    ASSERT_EQ(totals.size(), 2u);
    EXPECT_EQ(totals[0].name, "task-clock");
    EXPECT_EQ(totals[0].value, 15.0);
    EXPECT_FALSE(totals[0].scaled);
    EXPECT_EQ(totals[1].value, 150.0);
    EXPECT_TRUE(totals[1].scaled);
}

TEST(SumAcrossThreads, UnavailableInOneThreadMeansUnavailable) {
    const std::vector<std::vector<CounterValue>> threads = {
        {available("task-clock", 10), available("cycles", 100)},
        {available("task-clock", 5), missing("cycles", "no such event on this PMU")},
        {available("task-clock", 1)},
    };
    const auto totals = sum_across_threads(threads);
    ASSERT_EQ(totals.size(), 2u);
    EXPECT_EQ(totals[0].value, 16.0);
    EXPECT_FALSE(totals[1].value);
    EXPECT_EQ(totals[1].unavailable_reason, "no such event on this PMU");
}

TEST(SumAcrossThreads, CounterMissingFromAThreadIsUnavailable) {
    const std::vector<std::vector<CounterValue>> threads = {
        {available("task-clock", 10)},
        {available("task-clock", 5), available("page-faults", 3)},
    };
    const auto totals = sum_across_threads(threads);
    ASSERT_EQ(totals.size(), 2u);
    EXPECT_EQ(totals[1].name, "page-faults");
    EXPECT_FALSE(totals[1].value);
    EXPECT_EQ(totals[1].unavailable_reason, "not counted in thread 0");
}

TEST(SumAcrossThreads, RealGroupsFromTwoThreads) {
    std::vector<std::vector<CounterValue>> per_thread(2);
    auto measure = [&](unsigned slot) {
        CounterGroup group;
        group.enable();
        busy_work();
        group.disable();
        per_thread[slot] = group.read();
    };
    std::thread a(measure, 0), b(measure, 1);
    a.join();
    b.join();

    const auto totals = sum_across_threads(per_thread);
    ASSERT_EQ(totals.size(), default_run_events().size());
    expect_value_xor_reason(totals);
    const double expected =
        *named(per_thread[0], "task-clock").value + *named(per_thread[1], "task-clock").value;
    EXPECT_DOUBLE_EQ(*named(totals, "task-clock").value, expected);
}

TEST(SumAcrossThreads, NoThreadsNoCounters) {
    EXPECT_TRUE(sum_across_threads({}).empty());
}

} // namespace
} // namespace hitmap::perf
