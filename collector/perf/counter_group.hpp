#pragma once
// Counting for one thread: a perf_event_open group led by task-clock (a software event, so the
// group opens even without a PMU), every other event joined to it and read in one go, scaled
// for multiplexing. An event the kernel refuses stays in the result as unavailable, with the
// reason; it never takes the other counters down with it. Where perf_event_paranoid forbids
// kernel-mode counting the group falls back, like perf stat, to counting user mode only.
#include "collector/perf/event.hpp"
#include "collector/support/unique_fd.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <sys/types.h>
#include <vector>

namespace hitmap::perf {

struct CounterValue {
    std::string name;
    std::string unit;
    std::optional<double> value;                   // absent exactly when unavailable
    std::optional<std::string> unavailable_reason; // present exactly when unavailable
    bool scaled = false; // multiplexed: value extrapolated as raw * enabled / running
};

class CounterGroup {
public:
    // Opens `events` disabled, counting thread `tid` (0 = the calling thread) on any CPU.
    explicit CounterGroup(const std::vector<EventSpec>& events = default_run_events(),
                          pid_t tid = 0);

    void enable();
    void disable();

    // One value per requested event, in the requested order.
    std::vector<CounterValue> read() const;

    // Kernel-mode counting was refused: values cover user mode only, and events that only
    // happen in the kernel (context switches, migrations, tracepoints) are unavailable.
    bool user_only() const { return kernel_refusal_.has_value(); }

private:
    struct Counter {
        EventSpec spec;
        support::UniqueFd fd; // empty for task-clock itself, which is the leader
        std::uint64_t id = 0;
        bool in_group = false; // false: opened on its own because the group could not take it
        std::optional<std::string> unavailable_reason;
    };

    void open_leader(pid_t tid);
    void open_member(Counter& counter, pid_t tid);
    std::vector<std::uint64_t> read_group() const;

    support::UniqueFd leader_;
    std::uint64_t leader_id_ = 0;
    std::optional<std::string> leader_failure_;
    std::optional<std::string> kernel_refusal_; // why counting is user-only, when it is
    std::vector<Counter> counters_;
};

// A raw reading turned into a value: scaled when the event ran for only part of the time it was
// enabled, unavailable when it never ran at all.
CounterValue scaled_value(const EventSpec& event, std::uint64_t raw, std::uint64_t time_enabled,
                          std::uint64_t time_running);

// Per-counter sums over threads (matched by name). A counter is available only if every thread
// has it available; otherwise the first reason found is kept.
std::vector<CounterValue> sum_across_threads(std::span<const std::vector<CounterValue>> per_thread);

} // namespace hitmap::perf
