#pragma once
// One sender -> receiver message pipe between two workers of a pair (hackbench's pipes, netperf's
// skbs handed from the sending CPU to the receiving one), as probed shared state, so its own
// line transfers are part of the run. A blocked end sleeps until the other end writes the line
// (simulated) or yields (real threads).
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/kmem_layouts.hpp"
#include "engine/probe/probed_object.hpp"
#include "engine/runtime/simulation.hpp"

#include <atomic>
#include <cstdint>
#include <fmt/format.h>
#include <optional>
#include <thread>

namespace hitmap::engine {

// A blocked pipe end: asleep until the other end writes the line (simulated), or spinning.
inline void wait_on(const ProbedObject& pipe, FieldId field) {
    if (Simulation* sim = current_simulation())
        pipe.wait_for_write(*sim, field);
    else
        std::this_thread::yield();
}

// One sender -> receiver pipe. The sender owns `head` and the slots it fills, the receiver
// `tail`; each end keeps the other's index cached and re-reads it only when the pipe looks full
// or empty, as a pipe's writer and reader sleep and are woken.
class MessagePipe {
public:
    MessagePipe(ObjectRegistry& registry, unsigned pair, unsigned capacity)
        : ring_(registry, fmt::format("pipe/{}", pair),
                *find_builtin_layout("hackbench_pipe", "model"), 0)
        , capacity_(capacity) {}

    template <bool Traced> void send(std::uint64_t message) {
        const Site site = Site::hackbench_send;
        while (head_ - tail_seen_ >= capacity_) {
            tail_seen_ = ring_.load<Traced>(pipe_ring::tail, site);
            if (head_ - tail_seen_ >= capacity_)
                wait_on(ring_, pipe_ring::tail);
        }
        ring_.store<Traced>(slot(head_), message, site);
        std::atomic_thread_fence(std::memory_order_release);
        ring_.store<Traced>(pipe_ring::head, ++head_, site);
    }
    template <bool Traced> void close() {
        ring_.store<Traced>(pipe_ring::closed, 1, Site::hackbench_send);
    }
    // nullopt once the sender closed the pipe and it is empty.
    template <bool Traced> std::optional<std::uint64_t> receive() {
        const Site site = Site::hackbench_recv;
        while (tail_ == head_seen_) {
            head_seen_ = ring_.load<Traced>(pipe_ring::head, site);
            if (tail_ != head_seen_)
                break;
            if (ring_.load<Traced>(pipe_ring::closed, site)) {
                head_seen_ = ring_.load<Traced>(pipe_ring::head, site);
                if (tail_ == head_seen_)
                    return std::nullopt;
                break;
            }
            wait_on(ring_, pipe_ring::head);
        }
        std::atomic_thread_fence(std::memory_order_acquire);
        const std::uint64_t message = ring_.load<Traced>(slot(tail_), site);
        ring_.store<Traced>(pipe_ring::tail, ++tail_, site);
        return message;
    }

private:
    FieldId slot(std::uint64_t i) const {
        return static_cast<FieldId>(pipe_ring::slots_begin + i % capacity_);
    }
    ProbedObject ring_;
    unsigned capacity_;
    std::uint64_t head_ = 0, tail_seen_ = 0; // the sender's
    std::uint64_t tail_ = 0, head_seen_ = 0; // the receiver's
};

} // namespace hitmap::engine
