#include "collector/perf/lock_events.hpp"

#include "collector/perf/errors.hpp"
#include "collector/perf/sample_records.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <map>

namespace hitmap::perf {

namespace {

enum : std::uint32_t {
    kSpin = 1u << 0,
    kRead = 1u << 1,
    kWrite = 1u << 2,
    kRt = 1u << 3,
    kPercpu = 1u << 4,
    kMutex = 1u << 5,
    kTypeMask = 0x7f,
};

template <typename T> T read_at(std::span<const std::byte> body, std::size_t offset) {
    if (offset + sizeof(T) > body.size())
        throw PerfCorruptRecord(
            fmt::format("lock sample of {} bytes is shorter than its fields", body.size()));
    T v;
    std::memcpy(&v, body.data() + offset, sizeof(T));
    return v;
}

std::optional<LockEvent> parse_sample(std::span<const std::byte> body,
                                      const TracepointFormat& begin, const TracepointFormat& end) {
    // TID (pid, tid), TIME, CPU (cpu, res), RAW (u32 size, payload): perf_output_sample order.
    LockEvent e;
    e.tid = read_at<std::uint32_t>(body, 4);
    e.time_ns = read_at<std::uint64_t>(body, 8);
    e.cpu = read_at<std::uint32_t>(body, 16);
    const auto raw_size = read_at<std::uint32_t>(body, 24);
    if (28 + std::size_t{raw_size} > body.size())
        throw PerfCorruptRecord(
            fmt::format("lock sample claims {} raw bytes, {} present", raw_size, body.size() - 28));
    const auto raw = body.subspan(28, raw_size);
    const auto type = read_at<std::uint16_t>(raw, 0); // common_type: the tracepoint id
    const TracepointFormat* format = nullptr;
    if (type == begin.id()) {
        e.kind = LockEvent::Kind::begin;
        format = &begin;
    } else if (type == end.id()) {
        e.kind = LockEvent::Kind::end;
        format = &end;
    } else {
        return std::nullopt;
    }
    const auto addr = format->read(raw, "lock_addr");
    if (!addr)
        throw PerfCorruptRecord(fmt::format("{} sample without lock_addr", format->name()));
    e.lock_addr = static_cast<std::uint64_t>(*addr);
    if (e.kind == LockEvent::Kind::begin)
        e.flags = static_cast<std::uint32_t>(format->read(raw, "flags").value_or(0));
    else
        e.ret = static_cast<std::int32_t>(format->read(raw, "ret").value_or(0));
    return e;
}

} // namespace

std::uint64_t lock_sample_type() {
    return PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
}

void check_lock_formats(const TracepointFormat& begin, const TracepointFormat& end) {
    for (const char* field : {"lock_addr", "flags"})
        begin.require(field);
    for (const char* field : {"lock_addr", "ret"})
        end.require(field);
}

LockEventBatch parse_lock_events(std::span<const std::byte> ring, std::uint64_t tail,
                                 std::uint64_t head, const TracepointFormat& begin,
                                 const TracepointFormat& end) {
    LockEventBatch batch;
    RecordCounts counts;
    for_each_record_of(PERF_RECORD_SAMPLE, ring, tail, head, counts,
                       [&](std::span<const std::byte> body) {
                           if (auto e = parse_sample(body, begin, end))
                               batch.events.push_back(*e);
                       });
    batch.lost_samples = counts.lost_samples;
    return batch;
}

std::string lock_type_name(std::uint32_t flags) {
    switch (flags & kTypeMask) {
    case 0:
        return "semaphore";
    case kSpin:
        return "spinlock";
    case kSpin | kRead:
        return "rwlock:R";
    case kSpin | kWrite:
        return "rwlock:W";
    case kRead:
        return "rwsem:R";
    case kWrite:
        return "rwsem:W";
    case kRt:
        return "rt-mutex";
    case kRt | kRead:
        return "rwlock-rt:R";
    case kRt | kWrite:
        return "rwlock-rt:W";
    case kPercpu | kRead:
        return "pcpu-sem:R";
    case kPercpu | kWrite:
        return "pcpu-sem:W";
    case kMutex:
    case kMutex | kSpin:
        return "mutex";
    default:
        return fmt::format("flags {:#x}", flags & kTypeMask);
    }
}

KernelLockSummary summarize_lock_events(std::vector<LockEvent> events) {
    std::stable_sort(events.begin(), events.end(),
                     [](const LockEvent& a, const LockEvent& b) { return a.time_ns < b.time_ns; });
    struct Waiting {
        std::uint64_t lock_addr;
        std::uint64_t since_ns;
        std::uint32_t flags;
    };
    std::map<std::uint32_t, Waiting> waiting; // by tid
    std::map<std::uint64_t, KernelLockStat> locks;
    KernelLockSummary summary;
    for (const LockEvent& e : events) {
        if (e.kind == LockEvent::Kind::begin) {
            waiting.try_emplace(e.tid, Waiting{e.lock_addr, e.time_ns, e.flags});
            continue;
        }
        const auto it = waiting.find(e.tid);
        if (it == waiting.end() || it->second.lock_addr != e.lock_addr) {
            ++summary.unpaired;
            continue;
        }
        const std::uint64_t wait = e.time_ns - it->second.since_ns;
        auto [slot, fresh] = locks.try_emplace(e.lock_addr);
        KernelLockStat& s = slot->second;
        if (fresh) {
            s.lock_addr = e.lock_addr;
            s.flags = it->second.flags;
            s.wait_min_ns = wait;
        }
        ++s.contentions;
        s.wait_total_ns += wait;
        s.wait_min_ns = std::min(s.wait_min_ns, wait);
        s.wait_max_ns = std::max(s.wait_max_ns, wait);
        if (e.ret != 0)
            ++s.aborted;
        waiting.erase(it);
    }
    for (auto& [addr, s] : locks)
        summary.locks.push_back(s);
    std::stable_sort(summary.locks.begin(), summary.locks.end(), [](const auto& a, const auto& b) {
        return a.wait_total_ns > b.wait_total_ns;
    });
    return summary;
}

} // namespace hitmap::perf
