#pragma once
// A log2 histogram of lock wait times for instrumented locks: bucket i counts waits in
// [2^i, 2^(i+1)) ns (bucket 0 also takes 0 ns, which a coarse clock can report). 64 buckets
// cover every uint64 value; recording is one bit_width and one increment. Per-slot histograms
// are merged at the end like the rest of the lock statistics.
#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

namespace hitmap::locks {

struct WaitHistogram {
    static constexpr std::size_t kBuckets = 64;

    std::array<std::uint64_t, kBuckets> counts{};

    static std::size_t bucket_of(std::uint64_t wait_ns);

    void record(std::uint64_t wait_ns) { ++counts[bucket_of(wait_ns)]; }
    void merge(const WaitHistogram& other);
    std::uint64_t total() const;

    // {"unit": "ns", "buckets": [{"log2": i, "lo_ns": 2^i, "count": n}, ...]}, non-empty buckets
    // only, ascending.
    nlohmann::json to_json() const;
    // Inverse of to_json; throws std::invalid_argument for a malformed document.
    static WaitHistogram from_json(const nlohmann::json& json);

    bool operator==(const WaitHistogram&) const = default;
};

} // namespace hitmap::locks
