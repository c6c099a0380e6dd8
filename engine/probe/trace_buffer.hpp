#pragma once
// The per-thread probe recorder. It owns a preallocated, cacheline-aligned array and shares
// nothing with other threads, so the recorder cannot create the contention it measures.
//
// Rates are per traced operation: the workload calls end_operation() after each operation,
// and when the buffer fills the trace is cut back to the last complete operation, so the
// operations counted and the records kept always match.
#include "engine/probe/trace_record.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace hitmap::engine {

struct TraceWindow {
    std::uint64_t on_ns = 0;     // trace this long ...
    std::uint64_t period_ns = 0; // ... at the start of every period; 0 = always on
    // steady_clock time (ns) the periods count from. Every thread of a run must share it, or
    // their windows drift apart and the trace never shows two threads at once.
    std::uint64_t origin_ns = 0;

    bool open_at(std::uint64_t now_ns) const {
        return period_ns == 0 || (now_ns - origin_ns) % period_ns < on_ns;
    }
};

std::uint64_t steady_now_ns();

// How records get their timestamps. The replay orders the threads' records by them, so they
// decide which accesses interleave.
enum class TraceClock : std::uint8_t {
    // An rdtsc per shared-object record: the exact order, at ~10 ns per record on this VM.
    access,
    // One rdtsc per operation that touched a shared object; the records since the previous
    // rdtsc are spread evenly over the interval. Records run back to back (a few ns apart),
    // so the estimate errs by about what an rdtsc costs, and tracing perturbs the interleaving
    // less. Operations that touched only owner-only objects (a stock hit) read no clock: where
    // their records fall among other threads' cannot change a coherence outcome.
    operation,
};

const char* to_string(TraceClock clock);

class TraceBuffer {
public:
    TraceBuffer(std::size_t capacity_records, std::uint64_t tsc_base, TraceWindow window = {},
                TraceClock clock = TraceClock::access);
    ~TraceBuffer();
    TraceBuffer(const TraceBuffer&) = delete;
    TraceBuffer& operator=(const TraceBuffer&) = delete;

    // fresh_tsc = false reuses the thread's last timestamp: for objects only their owner
    // thread touches (the per-CPU stock), whose place among other threads' records cannot
    // change a coherence outcome; the rdtsc is most of a record's cost.
    void append(std::uint16_t object, std::uint8_t field, AccessKind kind, std::uint8_t log2_size,
                std::uint16_t offset, std::uint16_t site, bool fresh_tsc = true) {
        // One compare covers a full buffer and a closed window (limit_ == cursor_ then).
        if (cursor_ == limit_) [[unlikely]] {
            refuse();
            return;
        }
        if (fresh_tsc) {
            if (clock_ == TraceClock::access)
                set_stamp_tsc(read_tsc() - tsc_base_);
            else
                unstamped_shared_ = true;
        }
        *cursor_++ =
            TraceRecord::make_stamped(stamp_, object, field, kind, log2_size, offset, site);
    }

    // Called by the workload after every operation; refreshes the CPU id now and then so
    // migrations are caught, and opens/closes the duty-cycle window.
    // Inline: it runs once per operation; the rest happens every 64th (pass_checkpoint).
    void end_operation() {
        ++ops_;
        const bool checkpoint = (ops_ & kCheckpointMask) == 0;
        if (!full_ && recording_) [[likely]] {
            // At a checkpoint too, so a cut by time (truncate_at_tsc) sees final times.
            if (clock_ == TraceClock::operation && (unstamped_shared_ || checkpoint))
                stamp_pending_records();
            committed_size_ = size();
            committed_ops_ += 1;
        }
        if (checkpoint) [[unlikely]]
            pass_checkpoint();
    }
    // Empties the buffer, keeping its memory (benchmarks trace more than one buffer holds).
    void clear();
    // The thread starts its first operation now (TraceClock::operation times it from here).
    void start_clock() { set_stamp_tsc(read_tsc() - tsc_base_); }

    // Cuts the trace back to the last checkpoint (every 64 operations) whose records all ran at
    // or before `tsc`. When one thread's buffer fills, the others are cut at the same moment,
    // so the replay never sees a stretch where only some threads were traced.
    void truncate_at_tsc(std::uint64_t tsc);
    bool filled() const { return full_; }
    const TraceWindow& window() const { return window_; }
    TraceClock clock() const { return clock_; }

    std::span<const TraceRecord> records() const { return {data_, committed_size_}; }
    std::uint64_t traced_operations() const { return committed_ops_; }
    std::uint64_t dropped_records() const { return dropped_ + (size() - committed_size_); }
    // The operations whose records were cut or never recorded because the buffer was full.
    std::uint64_t cpu_migrations() const { return migrations_; }

    // Inline: it runs once per shared-object record, and a call would add to the rdtsc.
    static std::uint64_t read_tsc() {
#if defined(__x86_64__) || defined(__i386__)
        return __rdtsc();
#else
        return steady_now_ns();
#endif
    }

private:
    std::size_t size() const {
        return static_cast<std::size_t>(cursor_ - data_);
    }
    void set_stamp_tsc(std::uint64_t tsc) {
        stamp_ = (stamp_ & ~TraceRecord::kTscMask) | (tsc & TraceRecord::kTscMask);
    }
    void set_recording(bool on);
    void refuse();
    void refresh_cpu();
    void stamp_pending_records();
    void pass_checkpoint();

    static constexpr std::uint64_t kCheckpointMask = 63; // every 64 operations

    // The hot members first: append touches these four.
    TraceRecord* cursor_ = nullptr;
    TraceRecord* limit_ = nullptr; // end of the buffer, or cursor_ while nothing may be added
    std::uint64_t stamp_ = 0;      // the next record's TSC | CPU, as TraceRecord::tsc_cpu
    TraceClock clock_;
    bool unstamped_shared_ = false; // TraceClock::operation: a shared record awaits its time
    std::size_t stamped_size_ = 0;  // records before this index have their final time
    TraceRecord* data_ = nullptr;
    std::size_t capacity_ = 0;
    std::size_t committed_size_ = 0;
    std::uint64_t committed_ops_ = 0;
    std::uint64_t ops_ = 0;
    std::uint64_t dropped_ = 0;
    std::uint64_t migrations_ = 0;
    std::uint64_t tsc_base_ = 0;
    struct Checkpoint {
        std::size_t records;
        std::uint64_t ops;
    };
    std::vector<Checkpoint> checkpoints_;
    bool recording_ = true;
    bool full_ = false;
    TraceWindow window_;
};

// The calling thread's recorder, or null when tracing is off: the whole cost of an idle probe.
TraceBuffer* current_trace_buffer();

// Installs a buffer for the calling thread for the scope's lifetime.
class ThreadTraceScope {
public:
    explicit ThreadTraceScope(TraceBuffer* buffer);
    ~ThreadTraceScope();
    ThreadTraceScope(const ThreadTraceScope&) = delete;
    ThreadTraceScope& operator=(const ThreadTraceScope&) = delete;

private:
    TraceBuffer* previous_; // restored on exit, so scopes nest
};

namespace detail {
inline thread_local TraceBuffer* t_trace_buffer = nullptr;
}

inline TraceBuffer* current_trace_buffer() {
    return detail::t_trace_buffer;
}

} // namespace hitmap::engine
