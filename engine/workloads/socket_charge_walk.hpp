#pragma once
// One thread's socket in the netperf-like workloads: a random walk between "send" (charge
// 1..max_pages) and "ack" (uncharge the oldest charge held), so the per-CPU stock keeps both
// filling and draining as a socket's send queue does. Each thread owns its generator: a shared
// RNG would be a contended line of our own making.
#include "engine/memcg/charge_stock.hpp"

#include <cstdint>
#include <vector>

namespace hitmap::engine {

class SocketChargeWalk {
public:
    // `pressure_checks`: mem_cgroup_under_socket_pressure() walks per uncharge: v6.0's
    // __sk_mem_reduce_allocated() asks sk_under_memory_pressure() every time it gives memory
    // back (the charge side asks only above tcp_mem[0]; docs/LAYOUTS.md).
    SocketChargeWalk(MemcgCharger& charger, MemCgroup& memcg, unsigned max_pages,
                     std::size_t inflight, std::uint64_t seed, unsigned pressure_checks = 0)
        : charger_(charger)
        , memcg_(memcg)
        , max_pages_(max_pages)
        , pressure_checks_(pressure_checks)
        , held_(inflight)
        , rng_(seed | 1) {}

    // One operation: a charge or an uncharge (Traced: see ProbedObject::load).
    template <bool Traced = true> void step() {
        rng_ ^= rng_ << 13;
        rng_ ^= rng_ >> 7;
        rng_ ^= rng_ << 17;
        if (size_ < held_.size() && (size_ == 0 || (rng_ & 1))) {
            const auto pages = static_cast<unsigned>(1 + (rng_ >> 8) % max_pages_);
            if (charger_.template charge_skmem<Traced>(memcg_, pages)) {
                held_[(head_ + size_++) % held_.size()] = pages;
                charged_pages_ += pages;
            }
        } else {
            charger_.template uncharge_skmem<Traced>(memcg_, held_[head_]);
            head_ = (head_ + 1) % held_.size();
            --size_;
            for (unsigned i = 0; i < pressure_checks_; ++i)
                memcg_.template under_socket_pressure<Traced>();
        }
    }

    // Uncharges everything still held (outside the counted operations).
    void release_all() {
        for (; size_ > 0; --size_, head_ = (head_ + 1) % held_.size())
            charger_.uncharge_skmem(memcg_, held_[head_]);
    }

    std::uint64_t charged_pages() const { return charged_pages_; }

private:
    MemcgCharger& charger_;
    MemCgroup& memcg_;
    unsigned max_pages_;
    unsigned pressure_checks_;
    std::vector<unsigned> held_; // a ring, oldest at head_
    std::size_t head_ = 0, size_ = 0;
    std::uint64_t rng_;
    std::uint64_t charged_pages_ = 0;
};

} // namespace hitmap::engine
