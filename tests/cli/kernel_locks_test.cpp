// `run --kernel-locks` without the live tracepoints: both branches of what a run stores (the
// metric with a count, or without one and the reason), and the conversion of paired waits into
// a lock table, on synthetic waits. The live CLI run stays a smoke test (cli_lock_test.cpp).
#include "collector/analysis/kernel_locks_metric.hpp"
#include "collector/run/kernel_locks.hpp"

#include <gtest/gtest.h>

namespace hitmap::collector {
namespace {

using analysis::find_kernel_locks_metric;
using analysis::kernel_locks_unavailable;

perf::KernelLockSummary two_locks() {
    perf::KernelLockSummary s;
    s.locks = {{.lock_addr = 0xffff888100001000ull,
                .flags = 0, // spinlock
                .contentions = 3,
                .wait_total_ns = 9000,
                .wait_min_ns = 1000,
                .wait_max_ns = 5000},
               {.lock_addr = 0xffff888100002000ull,
                .flags = 0,
                .contentions = 1,
                .wait_total_ns = 700,
                .wait_min_ns = 700,
                .wait_max_ns = 700}};
    s.unpaired = 2;
    return s;
}

TEST(KernelLocks, CollectedWaitsAreAMetricWithTheirCount) {
    const store::Metric m = kernel_locks_metric(std::nullopt, two_locks());
    EXPECT_TRUE(m.available);
    EXPECT_EQ(m.value, 4.0);
    EXPECT_EQ(kernel_locks_unavailable(m), std::nullopt);
    EXPECT_EQ(find_kernel_locks_metric({m})->value, 4.0);
}

TEST(KernelLocks, MissingWaitsAreAMetricWithoutValueAndTheReason) {
    const store::Metric m = kernel_locks_metric("tracefs is not mounted", {});
    EXPECT_FALSE(m.available);
    EXPECT_EQ(m.value, std::nullopt);
    EXPECT_EQ(kernel_locks_unavailable(m), "tracefs is not mounted");
    EXPECT_EQ(find_kernel_locks_metric({}), std::nullopt);
}

TEST(KernelLocks, WaitsBecomeOneRowPerLockWithOnlyWhatTracepointsMeasure) {
    const locks::LockStatReport r = kernel_lock_report(two_locks());
    ASSERT_EQ(r.classes.size(), 2u);
    const auto& first = r.classes[0];
    EXPECT_EQ(first.key, locks::LockKey::lock_address);
    EXPECT_EQ(first.lock_address, 0xffff888100001000ull);
    ASSERT_TRUE(first.write);
    EXPECT_EQ(first.write->contentions, 3u);
    EXPECT_EQ(first.write->wait.min_ns, 1000);
    EXPECT_EQ(first.write->wait.max_ns, 5000);
    EXPECT_EQ(first.write->wait.total_ns, 9000);
    EXPECT_EQ(first.write->wait.avg_ns, 3000);
    // The tracepoints fire on waits only: no acquisitions, holds or bounces, unknown not 0.
    EXPECT_EQ(first.write->acquisitions, std::nullopt);
    EXPECT_EQ(first.write->hold.total_ns, std::nullopt);
    EXPECT_EQ(first.write->con_bounces, std::nullopt);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("2 waits without a begin"), std::string::npos);
}

} // namespace
} // namespace hitmap::collector
