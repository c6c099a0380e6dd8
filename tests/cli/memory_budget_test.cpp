// The memory check before a run (issue 9, failure 1), both branches, on a given meminfo.
#include "collector/run/memory_budget.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::collector {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kMeminfo = "MemTotal:       24576000 kB\n"
                                      "MemFree:        20000000 kB\n"
                                      "MemAvailable:   22000000 kB\n";

RunRequest request(unsigned threads, std::size_t trace_bytes) {
    RunRequest r;
    r.threads = {1, threads};
    r.c2c.trace_bytes_per_thread = trace_bytes;
    return r;
}

TEST(MemoryBudget, MemAvailableIsReadInBytes) {
    EXPECT_EQ(parse_mem_available(kMeminfo), std::uint64_t{22000000} * 1024);
    EXPECT_EQ(parse_mem_available("MemTotal: 1 kB\n"), std::nullopt);
    EXPECT_EQ(parse_mem_available("MemAvailable: lots\n"), std::nullopt);
}

TEST(MemoryBudget, ARunThatDoesNotFitIsRefusedWithBothFigures) {
    const auto need = estimate_run_memory(request(4096, std::size_t{64} << 20), true);
    try {
        check_memory(need, parse_mem_available(kMeminfo));
        FAIL() << "4096 threads with 64 MiB trace buffers fit in 21 GiB";
    } catch (const InsufficientMemory& e) {
        EXPECT_THAT(e.what(), HasSubstr("264.0 GiB"));
        EXPECT_THAT(e.what(), HasSubstr("4096 threads"));
        EXPECT_THAT(e.what(), HasSubstr("21.0 GiB available"));
    }
}

TEST(MemoryBudget, ARunThatFitsOrIsNotTracedOrOnAnUnknownMachineGoesAhead) {
    const auto available = parse_mem_available(kMeminfo);
    EXPECT_NO_THROW(
        check_memory(estimate_run_memory(request(2, std::size_t{64} << 20), true), available));
    EXPECT_NO_THROW(
        check_memory(estimate_run_memory(request(4096, std::size_t{64} << 20), false), available))
        << "without tracing there are no trace buffers";
    EXPECT_NO_THROW(check_memory(estimate_run_memory(request(4096, std::size_t{64} << 20), true),
                                 std::nullopt));
}

} // namespace
} // namespace hitmap::collector
