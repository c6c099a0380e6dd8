#pragma once
// The simulator's runnable virtual CPUs by virtual time: a binary min-heap of one-word keys
// (time << kCpuBits | cpu, so ties go to the lower CPU). Hand-written rather than
// std::priority_queue because the scheduler's common step is "the running CPU is no longer the
// earliest: put it back and take the earliest", which replace_top does with one sift instead of
// a push and a pop; the queue was a third of the simulator's time (docs/BENCHMARKS.md).
#include "collector/sim/errors.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <utility>
#include <vector>

namespace hitmap::sim {

class RunQueue {
public:
    static constexpr unsigned kCpuBits = 12; // machines of up to 4096 CPUs
    static constexpr std::uint64_t kMaxTimePs = (std::uint64_t{1} << (64 - kCpuBits)) - 1;

    bool empty() const { return heap_.empty(); }
    void clear() { heap_.clear(); }
    unsigned top_cpu() const { return static_cast<unsigned>(heap_.front() & kCpuMask); }
    // True when a queued CPU comes before `cpu` at `time_ps`.
    bool earlier_than(std::uint64_t time_ps, unsigned cpu) const {
        return !heap_.empty() && heap_.front() < key(time_ps, cpu);
    }

    void push(std::uint64_t time_ps, unsigned cpu) {
        heap_.push_back(key(time_ps, cpu));
        std::size_t i = heap_.size() - 1;
        while (i > 0) {
            const std::size_t parent = (i - 1) / 2;
            if (heap_[parent] <= heap_[i])
                break;
            std::swap(heap_[parent], heap_[i]);
            i = parent;
        }
    }
    unsigned pop() {
        const unsigned cpu = top_cpu();
        heap_.front() = heap_.back();
        heap_.pop_back();
        sift_down();
        return cpu;
    }
    // pop() and push(time_ps, cpu) in one: returns the CPU that was the earliest.
    unsigned replace_top(std::uint64_t time_ps, unsigned cpu) {
        const unsigned earliest = top_cpu();
        heap_.front() = key(time_ps, cpu);
        sift_down();
        return earliest;
    }

private:
    static constexpr std::uint64_t kCpuMask = (std::uint64_t{1} << kCpuBits) - 1;
    static std::uint64_t key(std::uint64_t time_ps, unsigned cpu) {
        if (time_ps > kMaxTimePs)
            throw SimulationError(fmt::format("virtual time passed {:.0f} s, the simulator's limit",
                                              static_cast<double>(kMaxTimePs) / 1e12));
        return time_ps << kCpuBits | cpu;
    }
    void sift_down() {
        const std::size_t n = heap_.size();
        std::size_t i = 0;
        for (;;) {
            std::size_t least = i;
            const std::size_t left = 2 * i + 1, right = left + 1;
            if (left < n && heap_[left] < heap_[least])
                least = left;
            if (right < n && heap_[right] < heap_[least])
                least = right;
            if (least == i)
                return;
            std::swap(heap_[i], heap_[least]);
            i = least;
        }
    }

    std::vector<std::uint64_t> heap_;
};

} // namespace hitmap::sim
