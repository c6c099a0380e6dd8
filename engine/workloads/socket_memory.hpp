#pragma once
// A socket's forward allocation (sk->sk_forward_alloc): bytes charged to the memcg but not yet
// used by an skb. Sending or receiving takes bytes from it and charges whole pages when it runs
// short (sk_wmem_schedule()/sk_rmem_schedule() -> __sk_mem_schedule(), net/core/sock.c);
// freeing an skb gives bytes back, and the socket uncharges whole pages per its reserve policy
// (sk_mem_uncharge() -> sk_mem_reclaim(), include/net/sock.h). Both ends of a socket's memory
// run on different CPUs (the send path and the ACK; the receive softirq and recvmsg), under the
// socket lock in the kernel: here one atomic word, updated without a probe, because the
// socket's own lines are part of the TCP stack's anchored work, not of the memcg model.
#include <atomic>
#include <cstdint>

namespace hitmap::engine {

enum class ReservePolicy {
    // 6.0-rc1 (4890b686f408 "net: keep sk->sk_forward_alloc as small as possible"): every
    // sk_mem_uncharge() reclaims as soon as a whole page is free.
    minimal,
    // Before: sk_mem_reclaim_partial() kept up to a page of forward allocation per socket.
    cached,
};

class SocketMemory {
public:
    static constexpr std::int64_t kPage = 4096;

    // Pages to charge before `bytes` are queued (0: the forward allocation covers them).
    unsigned schedule(std::int64_t bytes) {
        std::int64_t cur = forward_.load(std::memory_order_relaxed);
        for (;;) {
            const std::int64_t pages = cur >= bytes ? 0 : (bytes - cur + kPage - 1) / kPage;
            if (forward_.compare_exchange_weak(cur, cur + pages * kPage - bytes,
                                               std::memory_order_relaxed))
                return static_cast<unsigned>(pages);
        }
    }

    // Pages to uncharge after an skb of `bytes` is freed.
    unsigned release(std::int64_t bytes, ReservePolicy policy) {
        std::int64_t cur = forward_.load(std::memory_order_relaxed);
        for (;;) {
            const std::int64_t fa = cur + bytes;
            std::int64_t pages = 0;
            if (policy == ReservePolicy::minimal)
                pages = fa >= kPage ? fa / kPage : 0; // sk_mem_reclaim()
            else
                pages = fa > kPage ? (fa - 1) / kPage : 0; // sk_mem_reclaim_partial()
            if (forward_.compare_exchange_weak(cur, fa - pages * kPage, std::memory_order_relaxed))
                return static_cast<unsigned>(pages);
        }
    }

    // What is left charged when the run ends.
    std::int64_t forward_bytes() const { return forward_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::int64_t> forward_{0};
};

} // namespace hitmap::engine
