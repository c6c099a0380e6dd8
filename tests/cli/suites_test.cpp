// The built-in suites: `suite ci` must cover every workload with simulated runs whose reference
// calibration exists and holds every variant, or its figures would not be a function of the
// commit alone.
#include "collector/run/suites.hpp"
#include "collector/sim/calibration.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
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

// `make run` keeps the traces of the workload stories' runs only (the rest of the default
// suite's 729 MB of traces went unread), yet traces every variant of every probed workload.
TEST(Suites, DefaultTracesEveryVariantAndKeepsTheStorysTracesOnly) {
    const auto suites = builtin_suites();
    const Suite& suite = find_suite(suites, "default");
    std::map<std::string, std::set<std::string>> traced;
    for (const RunRequest& r : suite.requests) {
        if (r.simulate || r.c2c.source == C2cMode::off)
            continue;
        const auto& story = engine::find_workload(r.workload).info().story;
        for (const auto& v : r.variants) {
            EXPECT_TRUE(traced[r.workload].insert(v).second) << r.workload << " " << v;
            const bool in_story = story && (v == story->before || v == story->after);
            EXPECT_EQ(r.c2c.keep_trace, in_story) << r.workload << " " << v;
        }
    }
    for (const engine::Workload* w : engine::all_workloads()) {
        if (w->info().probed) {
            EXPECT_EQ(traced[w->info().name].size(), w->info().variants.size()) << w->info().name;
        }
    }
}

} // namespace
} // namespace hitmap::collector
