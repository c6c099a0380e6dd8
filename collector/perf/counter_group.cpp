#include "collector/perf/counter_group.hpp"

#include "collector/perf/errors.hpp"
#include "collector/perf/perf_syscall.hpp"

#include <algorithm>
#include <cerrno>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <unistd.h>

namespace hitmap::perf {

namespace {

constexpr std::uint64_t group_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
                                       PERF_FORMAT_TOTAL_TIME_ENABLED |
                                       PERF_FORMAT_TOTAL_TIME_RUNNING;
constexpr std::uint64_t single_format =
    PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

const EventSpec& task_clock() {
    static const EventSpec spec = *find_event("task-clock");
    return spec;
}

perf_event_attr counting_attr(const EventSpec& event, std::uint64_t read_format, bool disabled,
                              bool user_only) {
    perf_event_attr attr{};
    attr.size = sizeof(attr);
    attr.type = event.type;
    attr.config = event.config;
    attr.read_format = read_format;
    attr.disabled = disabled ? 1 : 0;
    attr.exclude_kernel = user_only ? 1 : 0;
    attr.exclude_hv = user_only ? 1 : 0;
    return attr;
}

// Events that fire in kernel context: with exclude_kernel they silently read 0.
bool occurs_only_in_kernel(const EventSpec& event) {
    return event.type == PERF_TYPE_TRACEPOINT ||
           (event.type == PERF_TYPE_SOFTWARE && (event.config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
                                                 event.config == PERF_COUNT_SW_CPU_MIGRATIONS));
}

CounterValue unavailable(const EventSpec& event, std::string reason) {
    return CounterValue{event.name, event.unit, std::nullopt, std::move(reason), false};
}

// The layout of a PERF_FORMAT_GROUP read: nr, time_enabled, time_running, then {value, id}.
struct GroupReading {
    std::span<const std::uint64_t> words;

    std::uint64_t time_enabled() const { return words[1]; }
    std::uint64_t time_running() const { return words[2]; }
    std::optional<std::uint64_t> value_of(std::uint64_t id) const {
        for (std::uint64_t i = 0; i < words[0]; ++i) {
            if (words[4 + 2 * i] == id)
                return words[3 + 2 * i];
        }
        return std::nullopt;
    }
};

} // namespace

CounterGroup::CounterGroup(const std::vector<EventSpec>& events, pid_t tid) {
    open_leader(tid);
    counters_.reserve(events.size());
    for (const EventSpec& event : events) {
        Counter& counter =
            counters_.emplace_back(Counter{event, support::UniqueFd(), 0, false, {}});
        if (leader_failure_) {
            counter.unavailable_reason = *leader_failure_;
        } else if (user_only() && occurs_only_in_kernel(event)) {
            counter.unavailable_reason = "occurs in kernel mode only, and " + *kernel_refusal_;
        } else if (event.type == task_clock().type && event.config == task_clock().config) {
            counter.id = leader_id_;
            counter.in_group = true;
        } else {
            open_member(counter, tid);
        }
    }
}

void CounterGroup::open_leader(pid_t tid) {
    OpenResult leader =
        open_event(counting_attr(task_clock(), group_format, true, false), tid, -1, -1);
    if (leader.error == EACCES || leader.error == EPERM) {
        // perf_event_paranoid 2 still allows user-mode counting of one's own threads.
        OpenResult user =
            open_event(counting_attr(task_clock(), group_format, true, true), tid, -1, -1);
        if (user.fd) {
            kernel_refusal_ = "kernel-mode counting was refused: " + describe_errno(leader.error);
            leader = std::move(user);
        }
    }
    if (!leader.fd) {
        leader_failure_ = "task-clock group leader: " + describe_errno(leader.error);
        return;
    }
    leader_id_ = event_id(leader.fd.get());
    leader_ = std::move(leader.fd);
}

void CounterGroup::open_member(Counter& counter, pid_t tid) {
    // Members start enabled so that they count exactly while the leader does.
    OpenResult joined = open_event(counting_attr(counter.spec, group_format, false, user_only()),
                                   tid, -1, leader_.get());
    if (joined.fd) {
        counter.id = event_id(joined.fd.get());
        counter.fd = std::move(joined.fd);
        counter.in_group = true;
        return;
    }
    // A hardware event may not fit the group's counters (EINVAL from the PMU's group check);
    // on its own it can still be multiplexed. For an absent event this just fails again.
    OpenResult alone =
        open_event(counting_attr(counter.spec, single_format, true, user_only()), tid, -1, -1);
    if (!alone.fd) {
        counter.unavailable_reason = describe_errno(alone.error);
        return;
    }
    counter.id = event_id(alone.fd.get());
    counter.fd = std::move(alone.fd);
}

void CounterGroup::enable() {
    if (leader_)
        event_ioctl(leader_.get(), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP, "enable counters");
    for (const Counter& counter : counters_) {
        if (counter.fd && !counter.in_group)
            event_ioctl(counter.fd.get(), PERF_EVENT_IOC_ENABLE, 0, "enable " + counter.spec.name);
    }
}

void CounterGroup::disable() {
    if (leader_)
        event_ioctl(leader_.get(), PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP, "disable counters");
    for (const Counter& counter : counters_) {
        if (counter.fd && !counter.in_group)
            event_ioctl(counter.fd.get(), PERF_EVENT_IOC_DISABLE, 0,
                        "disable " + counter.spec.name);
    }
}

std::vector<std::uint64_t> CounterGroup::read_group() const {
    std::vector<std::uint64_t> words(3 + 2 * (counters_.size() + 1));
    const ssize_t bytes = ::read(leader_.get(), words.data(), words.size() * sizeof(words[0]));
    if (bytes < 0)
        throw_errno("read counter group", errno);
    return words;
}

std::vector<CounterValue> CounterGroup::read() const {
    std::vector<std::uint64_t> group_words;
    if (leader_)
        group_words = read_group();
    const GroupReading group{group_words};

    std::vector<CounterValue> values;
    values.reserve(counters_.size());
    for (const Counter& counter : counters_) {
        if (counter.unavailable_reason) {
            values.push_back(unavailable(counter.spec, *counter.unavailable_reason));
        } else if (counter.in_group) {
            const auto raw = group.value_of(counter.id);
            values.push_back(
                raw ? scaled_value(counter.spec, *raw, group.time_enabled(), group.time_running())
                    : unavailable(counter.spec, "missing from the group read"));
        } else {
            std::uint64_t words[4] = {}; // value, time_enabled, time_running, id
            if (::read(counter.fd.get(), words, sizeof(words)) < 0)
                throw_errno("read " + counter.spec.name, errno);
            values.push_back(scaled_value(counter.spec, words[0], words[1], words[2]));
        }
    }
    return values;
}

CounterValue scaled_value(const EventSpec& event, std::uint64_t raw, std::uint64_t time_enabled,
                          std::uint64_t time_running) {
    if (time_enabled > 0 && time_running == 0)
        return unavailable(event, "never scheduled while enabled (hardware counters taken by "
                                  "other events)");
    CounterValue value{event.name, event.unit, static_cast<double>(raw), std::nullopt, false};
    if (time_running < time_enabled) {
        *value.value *= static_cast<double>(time_enabled) / static_cast<double>(time_running);
        value.scaled = true;
    }
    return value;
}

std::vector<CounterValue>
sum_across_threads(std::span<const std::vector<CounterValue>> per_thread) {
    std::vector<CounterValue> totals;
    for (const auto& thread : per_thread) {
        for (const CounterValue& counter : thread) {
            if (std::none_of(totals.begin(), totals.end(),
                             [&](const CounterValue& t) { return t.name == counter.name; }))
                totals.push_back(
                    CounterValue{counter.name, counter.unit, 0.0, std::nullopt, false});
        }
    }
    for (CounterValue& total : totals) {
        for (std::size_t t = 0; t < per_thread.size() && total.value; ++t) {
            const auto& thread = per_thread[t];
            const auto found =
                std::find_if(thread.begin(), thread.end(),
                             [&](const CounterValue& c) { return c.name == total.name; });
            if (found == thread.end() || !found->value) {
                total.value.reset();
                total.scaled = false;
                total.unavailable_reason = found == thread.end()
                                               ? fmt::format("not counted in thread {}", t)
                                               : found->unavailable_reason.value_or(
                                                     "unavailable in thread " + std::to_string(t));
            } else {
                *total.value += *found->value;
                total.scaled = total.scaled || found->scaled;
            }
        }
    }
    return totals;
}

} // namespace hitmap::perf
