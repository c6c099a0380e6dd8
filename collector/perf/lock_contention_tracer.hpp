#pragma once
// perf_event_open on lock:contention_begin and lock:contention_end for one thread, both
// writing into one ring so a thread's waits come out in order.
#include "collector/perf/lock_events.hpp"
#include "collector/perf/ring_buffer.hpp"
#include "collector/perf/tracepoint_format.hpp"
#include "collector/support/unique_fd.hpp"

#include <cstddef>
#include <optional>

namespace hitmap::perf {

class LockContentionTracer {
public:
    // Opens disabled, for the calling thread. Throws the decoded PerfError (e.g.
    // PerfPermissionDenied without CAP_PERFMON/root: raw tracepoint data is privileged), or
    // PerfInvalidConfig when a format lacks a field the decoder reads (check_lock_formats).
    LockContentionTracer(TracepointFormat begin, TracepointFormat end, std::size_t ring_pages = 64);

    void enable();
    void disable();
    // Events written since the last drain; a full ring shows up as lost_samples.
    LockEventBatch drain();

private:
    TracepointFormat begin_format_;
    TracepointFormat end_format_;
    support::UniqueFd begin_;
    support::UniqueFd end_;
    std::optional<RingBuffer> ring_;
};

} // namespace hitmap::perf
