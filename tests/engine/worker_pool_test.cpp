// WorkerPool: every slot runs once, iteration-bound bodies end the run by themselves, a
// duration stops the bodies, and a cancel flag set from outside ends a long run early.
#include "engine/runtime/worker_pool.hpp"

#include <gtest/gtest.h>
#include <thread>

namespace hitmap::engine {
namespace {

TEST(WorkerPool, IterationBoundBodiesEndTheRunWithoutADuration) {
    std::atomic<unsigned> ran{0};
    WorkerPool::run(3, StopCondition{std::nullopt, 10, nullptr}, {},
                    [&](unsigned, const std::atomic<bool>&) { ran.fetch_add(1); });
    EXPECT_EQ(ran.load(), 3u);
}

TEST(WorkerPool, ADurationSetsTheStopFlag) {
    std::atomic<unsigned> stopped{0};
    WorkerPool::run(2, StopCondition{std::chrono::milliseconds(20), std::nullopt, nullptr}, {},
                    [&](unsigned, const std::atomic<bool>& stop) {
                        while (!stop.load())
                            std::this_thread::yield();
                        stopped.fetch_add(1);
                    });
    EXPECT_EQ(stopped.load(), 2u);
}

TEST(WorkerPool, CancelEndsARunLongBeforeItsDuration) {
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        cancel.store(true);
    });
    const double seconds =
        WorkerPool::run(2, StopCondition{std::chrono::hours(1), std::nullopt, &cancel}, {},
                        [](unsigned, const std::atomic<bool>& stop) {
                            while (!stop.load())
                                std::this_thread::yield();
                        });
    canceller.join();
    EXPECT_LT(seconds, 600.0); // an hour without the cancel
}

} // namespace
} // namespace hitmap::engine
