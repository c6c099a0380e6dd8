#include "engine/probe/trace_buffer.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <sched.h>
#include <sys/mman.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace hitmap::engine {

namespace {
constexpr std::uint64_t kCpuRefreshMask = 63; // re-read the CPU every 64 operations
} // namespace

std::uint64_t steady_now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

std::uint64_t TraceBuffer::read_tsc() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return steady_now_ns();
#endif
}

TraceBuffer::TraceBuffer(std::size_t capacity_records, std::uint64_t tsc_base, TraceWindow window)
    : capacity_(capacity_records)
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
    refresh_cpu();
}

TraceBuffer::~TraceBuffer() {
    if (data_)
        munmap(data_, capacity_ * sizeof(TraceRecord));
}

void TraceBuffer::refresh_cpu() {
    const int cpu = sched_getcpu();
    const auto now = static_cast<std::uint16_t>(cpu < 0 ? 0 : cpu);
    if (now != cpu_ && size_ > 0)
        ++migrations_;
    cpu_ = now;
}

void TraceBuffer::end_operation() {
    ++ops_;
    if (!full_ && recording_) {
        committed_size_ = size_;
        committed_ops_ += 1;
    }
    if ((ops_ & kCpuRefreshMask) != 0)
        return;
    if (!full_ && (checkpoints_.empty() || checkpoints_.back().records != committed_size_))
        checkpoints_.push_back({committed_size_, committed_ops_});
    refresh_cpu();
    if (window_.period_ns != 0 && !full_) {
        recording_ = window_.open_at(steady_now_ns());
    }
}

void TraceBuffer::clear() {
    size_ = committed_size_ = 0;
    committed_ops_ = ops_ = dropped_ = migrations_ = 0;
    full_ = false;
    recording_ = true;
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
    size_ = committed_size_ = keep.records;
    committed_ops_ = keep.ops;
    full_ = true;
}

ThreadTraceScope::ThreadTraceScope(TraceBuffer* buffer)
    : previous_(detail::t_trace_buffer) {
    detail::t_trace_buffer = buffer;
}
ThreadTraceScope::~ThreadTraceScope() {
    detail::t_trace_buffer = previous_;
}

} // namespace hitmap::engine
