#include "engine/probe/trace_buffer.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <sched.h>
#include <sys/mman.h>

namespace hitmap::engine {

namespace {
// 2^32 / n: an operation's records are spread by multiplication.
constexpr auto kReciprocals = [] {
    std::array<std::uint64_t, 128> r{};
    for (std::size_t n = 1; n < r.size(); ++n)
        r[n] = (std::uint64_t{1} << 32) / n;
    return r;
}();
} // namespace

std::uint64_t steady_now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

const char* to_string(TraceClock clock) {
    return clock == TraceClock::operation ? "operation" : "access";
}

TraceBuffer::TraceBuffer(std::size_t capacity_records, std::uint64_t tsc_base, TraceWindow window,
                         TraceClock clock)
    : clock_(clock)
    , capacity_(capacity_records)
    , tsc_base_(tsc_base)
    , window_(window) {
    if (capacity_ > 0) {
        // mmap so the buffer is page-aligned, and prefault it: page faults inside the traced
        // loop would perturb the very interleaving we record.
        const std::size_t bytes = capacity_ * sizeof(TraceRecord);
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        madvise(p, bytes, MADV_HUGEPAGE);
        data_ = static_cast<TraceRecord*>(p);
        // Enough for a checkpoint per 64 operations of one record or more each.
        checkpoints_.reserve(capacity_ / 64 + 2);
    }
    cursor_ = data_;
    limit_ = data_ + capacity_;
    refresh_cpu();
    start_clock();
}

TraceBuffer::~TraceBuffer() {
    if (data_)
        munmap(data_, capacity_ * sizeof(TraceRecord));
}

void TraceBuffer::refuse() {
    if (recording_) { // the buffer is full, not the window closed
        ++dropped_;
        full_ = true;
    }
}

void TraceBuffer::set_recording(bool on) {
    recording_ = on;
    limit_ = on && !full_ ? data_ + capacity_ : cursor_;
}

void TraceBuffer::refresh_cpu() {
    const int cpu = sched_getcpu();
    const auto now = static_cast<std::uint64_t>(cpu < 0 ? 0 : cpu);
    const std::uint64_t before = stamp_ >> TraceRecord::kTscBits;
    if (now != before && size() > 0)
        ++migrations_;
    stamp_ = (stamp_ & TraceRecord::kTscMask) | (now << TraceRecord::kTscBits);
}

void TraceBuffer::stamp_pending_records() {
    const std::uint64_t now = read_tsc() - tsc_base_;
    TraceRecord* const first = data_ + stamped_size_;
    const auto n = static_cast<std::size_t>(cursor_ - first);
    if (n > 0) {
        // The records hold the previous stamp; each moves to the middle of its share of the
        // interval. Fixed point, no division: a divide would cost as much as the rdtsc this
        // clock saves. An interval above 2^32 cycles (a preemption) is clamped.
        const std::uint64_t span =
            std::min<std::uint64_t>(now - (stamp_ & TraceRecord::kTscMask), 0xffffffffu);
        const std::uint64_t slice =
            span * (n < kReciprocals.size() ? kReciprocals[n] : (std::uint64_t{1} << 32) / n);
        std::uint64_t at = slice / 2;
        for (TraceRecord* r = first; r != cursor_; ++r, at += slice)
            r->tsc_cpu += at >> 32;
    }
    set_stamp_tsc(now);
    stamped_size_ = size();
    unstamped_shared_ = false;
}

void TraceBuffer::pass_checkpoint() {
    if (!full_ && (checkpoints_.empty() || checkpoints_.back().records != committed_size_))
        checkpoints_.push_back({committed_size_, committed_ops_});
    refresh_cpu(); // now and then, so migrations are caught
    if (window_.period_ns != 0 && !full_) {
        const bool was_recording = recording_;
        set_recording(window_.open_at(steady_now_ns()));
        if (recording_ && !was_recording)
            start_clock();
    }
}

void TraceBuffer::clear() {
    cursor_ = data_;
    committed_size_ = stamped_size_ = 0;
    unstamped_shared_ = false;
    committed_ops_ = ops_ = dropped_ = migrations_ = 0;
    full_ = false;
    set_recording(true);
    checkpoints_.clear();
}

void TraceBuffer::truncate_at_tsc(std::uint64_t tsc) {
    if (committed_size_ == 0 || data_[committed_size_ - 1].tsc() <= tsc)
        return;
    Checkpoint keep{0, 0};
    for (auto it = checkpoints_.rbegin(); it != checkpoints_.rend(); ++it)
        if (it->records == 0 || data_[it->records - 1].tsc() <= tsc) {
            keep = *it;
            break;
        }
    dropped_ += committed_size_ - keep.records;
    committed_size_ = stamped_size_ = keep.records;
    cursor_ = data_ + committed_size_;
    committed_ops_ = keep.ops;
    full_ = true;
    set_recording(recording_);
}

ThreadTraceScope::ThreadTraceScope(TraceBuffer* buffer)
    : previous_(detail::t_trace_buffer) {
    detail::t_trace_buffer = buffer;
    if (buffer)
        buffer->start_clock(); // the thread's first operation begins after it installs the buffer
}
ThreadTraceScope::~ThreadTraceScope() {
    detail::t_trace_buffer = previous_;
}

} // namespace hitmap::engine
