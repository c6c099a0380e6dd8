#include "collector/perf/lock_contention_tracer.hpp"

#include "collector/perf/errors.hpp"
#include "collector/perf/perf_syscall.hpp"

#include <ctime>
#include <fmt/format.h>
#include <linux/perf_event.h>

namespace hitmap::perf {

namespace {

support::UniqueFd open_tracepoint(const TracepointFormat& format, int group_fd) {
    perf_event_attr attr{};
    attr.size = sizeof(attr);
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = format.id();
    attr.sample_period = 1; // every wait: the pairing needs both ends
    attr.sample_type = lock_sample_type();
    attr.disabled = group_fd < 0 ? 1 : 0;
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;
    OpenResult opened = open_event(attr, 0, -1, group_fd);
    if (!opened.fd)
        throw_errno(fmt::format("lock:{}", format.name()), opened.error);
    return std::move(opened.fd);
}

} // namespace

LockContentionTracer::LockContentionTracer(TracepointFormat begin, TracepointFormat end,
                                           std::size_t ring_pages)
    : begin_format_(std::move(begin))
    , end_format_(std::move(end)) {
    check_lock_formats(begin_format_, end_format_);
    begin_ = open_tracepoint(begin_format_, -1);
    end_ = open_tracepoint(end_format_, begin_.get());
    ring_.emplace(begin_.get(), ring_pages);
    event_ioctl(end_.get(), PERF_EVENT_IOC_SET_OUTPUT, static_cast<unsigned long>(begin_.get()),
                "route lock:contention_end into the contention_begin ring");
}

void LockContentionTracer::enable() {
    event_ioctl(begin_.get(), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP,
                "enable lock tracepoints");
}

void LockContentionTracer::disable() {
    event_ioctl(begin_.get(), PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP,
                "disable lock tracepoints");
}

LockEventBatch LockContentionTracer::drain() {
    LockEventBatch batch;
    ring_->consume([&](std::span<const std::byte> data, std::uint64_t tail, std::uint64_t head) {
        batch = parse_lock_events(data, tail, head, begin_format_, end_format_);
    });
    return batch;
}

} // namespace hitmap::perf
