#include "collector/locks/wait_histogram.hpp"

#include <bit>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace hitmap::locks {

std::size_t WaitHistogram::bucket_of(std::uint64_t wait_ns) {
    return wait_ns == 0 ? 0 : static_cast<std::size_t>(std::bit_width(wait_ns) - 1);
}

void WaitHistogram::merge(const WaitHistogram& other) {
    for (std::size_t i = 0; i < kBuckets; ++i)
        counts[i] += other.counts[i];
}

std::uint64_t WaitHistogram::total() const {
    std::uint64_t sum = 0;
    for (const auto n : counts)
        sum += n;
    return sum;
}

nlohmann::json WaitHistogram::to_json() const {
    auto buckets = nlohmann::json::array();
    for (std::size_t i = 0; i < kBuckets; ++i)
        if (counts[i] != 0)
            buckets.push_back(
                {{"log2", i}, {"lo_ns", std::uint64_t{1} << i}, {"count", counts[i]}});
    return {{"unit", "ns"}, {"buckets", std::move(buckets)}};
}

WaitHistogram WaitHistogram::from_json(const nlohmann::json& json) {
    if (!json.is_object() || json.value("unit", "") != "ns" || !json.contains("buckets") ||
        !json["buckets"].is_array())
        throw std::invalid_argument(
            "wait histogram: expected {\"unit\": \"ns\", \"buckets\": [...]}");
    WaitHistogram histogram;
    for (const auto& bucket : json["buckets"]) {
        if (!bucket.is_object() || !bucket.contains("log2") || !bucket.contains("count") ||
            !bucket["log2"].is_number_unsigned() || !bucket["count"].is_number_unsigned() ||
            bucket["log2"].get<std::uint64_t>() >= kBuckets)
            throw std::invalid_argument(
                fmt::format("wait histogram: bad bucket {}", bucket.dump()));
        histogram.counts[bucket["log2"].get<std::size_t>()] += bucket["count"].get<std::uint64_t>();
    }
    return histogram;
}

} // namespace hitmap::locks
