#include "collector/run/memory_budget.hpp"

#include "collector/support/text_file.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace hitmap::collector {

namespace {

// The worker's stack and its share of the engine (stock slots, in-flight charges, counters):
// an allowance, not a measurement; trace buffers dominate whenever tracing is on.
constexpr std::uint64_t kPerThreadAllowance = std::uint64_t{2} << 20;

std::string gib(std::uint64_t bytes) {
    return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / double(1ull << 30));
}

} // namespace

MemoryEstimate estimate_run_memory(const RunRequest& request, bool traced) {
    const unsigned threads =
        request.threads.empty() ? 1
                                : *std::max_element(request.threads.begin(), request.threads.end());
    MemoryEstimate e;
    const std::uint64_t trace = traced ? request.c2c.trace_bytes_per_thread : 0;
    e.bytes = threads * (trace + kPerThreadAllowance);
    e.breakdown = traced ? fmt::format("{} threads × ({:.1f} MiB trace buffer + {:.0f} MiB "
                                       "stack and state)",
                                       threads, double(trace) / double(1 << 20),
                                       double(kPerThreadAllowance) / double(1 << 20))
                         : fmt::format("{} threads × {:.0f} MiB stack and state", threads,
                                       double(kPerThreadAllowance) / double(1 << 20));
    return e;
}

std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo) {
    constexpr std::string_view key = "MemAvailable:";
    const auto at = meminfo.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = meminfo.substr(at + key.size());
    rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
    std::uint64_t kib = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
    if (ec != std::errc() || std::string_view(end, 3) != " kB")
        return std::nullopt;
    return kib * 1024;
}

std::optional<std::uint64_t> mem_available() {
    const auto text = support::read_text_file("/proc/meminfo");
    return text ? parse_mem_available(*text) : std::nullopt;
}

void check_memory(const MemoryEstimate& need, std::optional<std::uint64_t> available) {
    if (!available || need.bytes <= *available / 10 * 9)
        return;
    throw InsufficientMemory(fmt::format(
        "the run needs about {} ({}), this machine has {} available; lower --threads or "
        "--trace-mb",
        gib(need.bytes), need.breakdown, gib(*available)));
}

} // namespace hitmap::collector
