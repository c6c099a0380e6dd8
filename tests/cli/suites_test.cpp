// The built-in suites: `suite ci` must cover every workload with simulated runs whose reference
// calibration exists and holds every variant, or its figures would not be a function of the
// commit alone.
#include "collector/run/suites.hpp"
#include "collector/sim/calibration.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace hitmap::collector {
namespace {

TEST(Suites, CiSimulatesEveryVariantOfEveryWorkloadFromAReferenceCalibration) {
    const auto suites = builtin_suites();
    const Suite& ci = find_suite(suites, "ci");
    std::set<std::string> simulated, measured;
    for (const RunRequest& r : ci.requests) {
        if (!r.simulate) {
            EXPECT_GE(r.repeat, 3u) << r.workload; // below 3, compare warns of noise
            measured.insert(r.workload);
            continue;
        }
        simulated.insert(r.workload);
        ASSERT_TRUE(r.simulate->calibration_file) << r.workload;
        const auto calibrations = sim::load_calibrations(*r.simulate->calibration_file);
        for (const auto& variant : r.variants)
            EXPECT_TRUE(
                std::any_of(calibrations.begin(), calibrations.end(),
                            [&](const sim::Calibration& c) { return c.variant == variant; }))
                << r.workload << " " << variant;
        EXPECT_EQ(r.variants.size(), engine::find_workload(r.workload).info().variants.size());
    }
    for (const engine::Workload* w : engine::all_workloads()) {
        EXPECT_TRUE(simulated.contains(w->info().name)) << w->info().name;
        EXPECT_TRUE(measured.contains(w->info().name)) << w->info().name;
    }
}

} // namespace
} // namespace hitmap::collector
