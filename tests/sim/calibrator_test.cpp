// The calibrator's native runs on a machine too busy to give a short run any CPU: a run that
// did no operation in its time is given twice the time, and only a workload that does none in
// a second is refused (two busy loops beside a sanitizer build made one in six calibrations
// fail with "did no operation in 0.01 s").
#include "collector/sim/calibrator.hpp"
#include "collector/sim/errors.hpp"

#include <chrono>
#include <gtest/gtest.h>
#include <mutex>
#include <vector>

namespace hitmap::sim {
namespace {

using std::chrono::milliseconds;

// Does no operation in a run shorter than `needs`, and never a probed access: the calibration
// gets past its native runs or not, and then stops for want of accesses. Records the time each
// run was given.
class StarvedWorkload : public engine::Workload {
public:
    explicit StarvedWorkload(std::optional<milliseconds> needs)
        : needs_(needs) {
        info_.name = "starved";
        info_.variants = {{"only", "test workload"}};
    }
    const engine::WorkloadInfo& info() const override { return info_; }
    engine::WorkloadResult run(const engine::WorkloadRunConfig& config,
                               const engine::ThreadHooks&) const override {
        const auto given =
            std::chrono::round<milliseconds>(config.stop.duration.value_or(std::chrono::hours(1)));
        {
            const std::lock_guard lock(mutex_);
            given_.push_back(given);
        }
        engine::WorkloadResult r;
        r.seconds = 0.001;
        r.ops = needs_ && given >= *needs_ ? 1 : 0;
        return r;
    }
    std::vector<milliseconds> given() const {
        const std::lock_guard lock(mutex_);
        return given_;
    }

private:
    std::optional<milliseconds> needs_;
    engine::WorkloadInfo info_;
    mutable std::mutex mutex_;
    mutable std::vector<milliseconds> given_;
};

CalibrationPlan one_native_run() {
    CalibrationPlan plan;
    plan.native_repeats = 1;
    plan.native_seconds = 0.01;
    return plan;
}

engine::WorkloadRunConfig only() {
    engine::WorkloadRunConfig c;
    c.variant = "only";
    return c;
}

TEST(Calibrator, ANativeRunWithoutCpuIsGivenMoreTime) {
    const StarvedWorkload w(milliseconds(40));
    try {
        measure_calibration(w, only(), one_native_run());
        FAIL() << "a workload without probed accesses was calibrated";
    } catch (const CalibrationError& e) {
        // Past the native runs: refused for what it is, not for the busy machine.
        EXPECT_STREQ(e.what(), "starved made no probed accesses: nothing to calibrate");
    }
    const auto given = w.given();
    ASSERT_GE(given.size(), 3u);
    EXPECT_EQ(std::vector(given.begin(), given.begin() + 3),
              (std::vector{milliseconds(10), milliseconds(20), milliseconds(40)}));
}

TEST(Calibrator, AWorkloadThatNeverOperatesIsRefusedAfterASecond) {
    const StarvedWorkload w(std::nullopt);
    try {
        measure_calibration(w, only(), one_native_run());
        FAIL() << "calibrated";
    } catch (const CalibrationError& e) {
        EXPECT_STREQ(e.what(), "starved only did no operation in 1 s");
    }
    EXPECT_EQ(w.given().back(), milliseconds(1280));
}

} // namespace
} // namespace hitmap::sim
