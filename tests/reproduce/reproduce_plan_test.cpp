// What `reproduce` plans for each built-in investigation, read against the investigation's own
// metadata (engine/workloads): no run of a source the options leave out, the seed's sizes or
// the quick ones, the native-scale row first.
#include "collector/reproduce/reproduce_plan.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace hitmap::collector {
namespace {

ReproduceOptions options(bool simulate, bool quick = false, unsigned measured_repeats = 3) {
    ReproduceOptions o;
    o.simulate = simulate;
    o.quick = quick;
    o.measured_repeats = measured_repeats;
    return o;
}

std::size_t count(const std::vector<PlannedRowRun>& plan, RowSource source) {
    return std::count_if(plan.begin(), plan.end(),
                         [&](const auto& p) { return p.source == source; });
}

TEST(ReproducePlan, EveryInvestigationIsPlannedFromItsRows) {
    const auto all = investigations();
    ASSERT_FALSE(all.empty());
    for (const engine::WorkloadInfo* w : all) {
        SCOPED_TRACE(w->investigation->id);
        const engine::Investigation& inv = *w->investigation;
        std::size_t measured = 0, simulated = 0;
        for (const auto& t : inv.tables)
            for (const auto& r : t.rows) {
                measured += r.measured.has_value();
                simulated += r.simulated.has_value();
            }
        const auto native = std::count_if(inv.anchors.begin(), inv.anchors.end(), [](auto& a) {
            return a.kind == engine::Anchor::Kind::native_scale;
        });

        const auto real = plan_reproduction(*w, options(false, false, 4));
        EXPECT_EQ(count(real, RowSource::measured), measured);
        EXPECT_EQ(count(real, RowSource::simulated) + count(real, RowSource::unscaled), 0u);
        for (const auto& p : real) {
            ASSERT_EQ(p.request.variants.size(), 1u);
            ASSERT_EQ(p.request.threads.size(), 1u);
            if (p.source == RowSource::measured) {
                // Untraced, repeated for its spread.
                EXPECT_EQ(p.request.c2c.source, C2cMode::off);
                EXPECT_EQ(p.request.repeat, 4u);
            }
        }

        const auto sim = plan_reproduction(*w, options(true));
        EXPECT_EQ(count(sim, RowSource::simulated), simulated);
        EXPECT_EQ(count(sim, RowSource::unscaled), static_cast<std::size_t>(native));
        if (native) { // it sets the scale of every simulated run after it
            EXPECT_EQ(sim.front().source, RowSource::unscaled);
        }
        for (const auto& p : sim) {
            const engine::SeedRow& row = inv.tables.at(p.table).rows.at(p.row);
            if (p.source != RowSource::simulated)
                continue;
            EXPECT_TRUE(p.request.simulate.has_value());
            EXPECT_EQ(p.request.variants.front(), row.simulated->variant);
            if (row.simulated->threads != 0) {
                EXPECT_EQ(p.request.threads.front(), row.simulated->threads);
            }
            if (row.simulated->iterations != 0) {
                EXPECT_EQ(p.request.stop.iterations, row.simulated->iterations);
            }
        }

        const auto quick = plan_reproduction(*w, options(true, true));
        ASSERT_EQ(quick.size(), sim.size());
        for (const auto& p : quick) {
            const engine::SeedRow& row = inv.tables.at(p.table).rows.at(p.row);
            if (p.source == RowSource::simulated && row.simulated->quick_iterations != 0) {
                EXPECT_EQ(p.request.stop.iterations, row.simulated->quick_iterations);
            }
        }
    }
}

TEST(ReproducePlan, AnUnknownInvestigationNamesTheKnownOnes) {
    try {
        find_investigation("no-such-2099");
        FAIL() << "no error";
    } catch (const engine::WorkloadError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unknown investigation 'no-such-2099'"), std::string::npos) << what;
        for (const engine::WorkloadInfo* w : investigations())
            EXPECT_NE(what.find(w->investigation->id), std::string::npos) << what;
        EXPECT_TRUE(what.ends_with(", all")) << what;
    }
    for (const engine::WorkloadInfo* w : investigations())
        EXPECT_EQ(&find_investigation(w->investigation->id), w);
}

} // namespace
} // namespace hitmap::collector
