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

class TraceBuffer {
public:
    TraceBuffer(std::size_t capacity_records, std::uint64_t tsc_base, TraceWindow window = {});
    ~TraceBuffer();
    TraceBuffer(const TraceBuffer&) = delete;
    TraceBuffer& operator=(const TraceBuffer&) = delete;

    // fresh_tsc = false reuses the thread's last timestamp: for objects only their owner
    // thread touches (the per-CPU stock), whose place among other threads' records cannot
    // change a coherence outcome; the rdtsc is most of a record's cost.
    void append(std::uint16_t object, std::uint8_t field, AccessKind kind, std::uint8_t log2_size,
                std::uint16_t offset, std::uint16_t site, bool fresh_tsc = true) {
        if (!recording_)
            return;
        if (size_ == capacity_) {
            ++dropped_;
            full_ = true;
            return;
        }
        if (fresh_tsc)
            last_tsc_ = read_tsc() - tsc_base_;
        data_[size_++] =
            TraceRecord::make(last_tsc_, cpu_, object, field, kind, log2_size, offset, site);
    }

    // Called by the workload after every operation; refreshes the CPU id now and then so
    // migrations are caught, and opens/closes the duty-cycle window.
    void end_operation();
    // Empties the buffer, keeping its memory (benchmarks trace more than one buffer holds).
    void clear();

    // Cuts the trace back to the last checkpoint (every 64 operations) whose records all ran at
    // or before `tsc`. When one thread's buffer fills, the others are cut at the same moment,
    // so the replay never sees a stretch where only some threads were traced.
    void truncate_at_tsc(std::uint64_t tsc);
    bool filled() const { return full_; }
    const TraceWindow& window() const { return window_; }

    std::span<const TraceRecord> records() const { return {data_, committed_size_}; }
    std::uint64_t traced_operations() const { return committed_ops_; }
    std::uint64_t dropped_records() const { return dropped_ + (size_ - committed_size_); }
    // The operations whose records were cut or never recorded because the buffer was full.
    std::uint64_t cpu_migrations() const { return migrations_; }

    static std::uint64_t read_tsc();

private:
    void refresh_cpu();

    TraceRecord* data_ = nullptr;
    std::size_t capacity_ = 0;
    std::size_t size_ = 0;
    std::size_t committed_size_ = 0;
    std::uint64_t committed_ops_ = 0;
    std::uint64_t ops_ = 0;
    std::uint64_t dropped_ = 0;
    std::uint64_t migrations_ = 0;
    std::uint64_t tsc_base_ = 0;
    std::uint64_t last_tsc_ = 0;
    std::uint16_t cpu_ = 0;
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
