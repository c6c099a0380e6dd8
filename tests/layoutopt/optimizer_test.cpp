// The affinity measurement and the optimizer against an evaluation that follows a known
// pairwise model exactly, so every figure is known beforehand.
#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/field_affinity.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "collector/layoutopt/optimizer.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace hitmap::layoutopt {
namespace {

using namespace engine::pc;

// Two page_counter objects whose accesses cost, per line, the `self` of each accessed field
// there plus the `pair` of every two of them: what the probe layouts must measure back.
struct PairwiseRun {
    std::vector<engine::FieldId> accessed{usage, min, low, high, max};
    std::vector<double> self = std::vector<double>(kCount, 0);
    std::vector<std::vector<double>> pair =
        std::vector<std::vector<double>>(kCount, std::vector<double>(kCount, 0));
    store::C2cData recorded;

    PairwiseRun() {
        const engine::Layout& v6_0 = *engine::find_builtin_layout("page_counter", "v6.0");
        recorded.objects = {{0, "a", v6_0, 0}, {1, "b", v6_0, 0}};
        recorded.trace.traced_ops = 1000;
    }
    void set_pair(engine::FieldId a, engine::FieldId b, double cost) {
        pair[a][b] = pair[b][a] = cost;
    }

    store::C2cData operator()(const c2c::LayoutOverrides& layouts) const {
        store::C2cData data = recorded;
        const auto it = layouts.find("page_counter");
        const engine::Layout& layout =
            it == layouts.end() ? recorded.objects[0].layout : it->second;
        for (const engine::ObjectInfo& o : recorded.objects) {
            const auto lines = lines_of(layout);
            for (std::uint32_t k = 0; k < lines.size(); ++k) {
                std::vector<engine::FieldId> here;
                for (const engine::FieldId f : lines[k])
                    if (std::find(accessed.begin(), accessed.end(), f) != accessed.end())
                        here.push_back(f);
                if (here.empty())
                    continue;
                const c2c::LineKey key{o.id, k, 4096u * (o.id + 1) + 64 * k};
                double cost = 0;
                for (std::size_t a = 0; a < here.size(); ++a) {
                    cost += self[here[a]];
                    for (std::size_t b = a + 1; b < here.size(); ++b)
                        cost += pair[here[a]][here[b]];
                    c2c::FieldStats f{key,     layout.at(here[a]).offset % 64,          8,
                                      here[a], std::string(layout.field_name(here[a])), {}};
                    f.counts.loads = 1;
                    data.result.fields.push_back(f);
                }
                c2c::LineStats line{key, {}};
                line.counts.store_hitm = static_cast<std::uint64_t>(cost);
                line.counts.stores = 1;
                data.result.lines.push_back(line);
                data.result.totals += line.counts;
            }
        }
        return data;
    }
};

// usage written everywhere: the limits falsely share with it; min and low are read together,
// so one's transfer brings the other along.
PairwiseRun counter_run() {
    PairwiseRun run;
    run.self[usage] = 100;
    run.self[min] = run.self[low] = 20;
    for (const engine::FieldId f : {min, low, high, max})
        run.set_pair(usage, f, 40);
    run.set_pair(min, low, -10);
    run.set_pair(high, max, 3);
    return run;
}

TEST(FieldAffinity, RoundRobinProbesMeasureEveryPairOnce) {
    const PairwiseRun run = counter_run();
    const StructCopies copies(engine::page_counter_type(), run.recorded.objects);
    EXPECT_EQ(copies.count(), 2u);
    std::vector<engine::FieldId> others;
    for (engine::FieldId f = 0; f < kCount; ++f)
        if (copies.current().has(f) &&
            std::find(run.accessed.begin(), run.accessed.end(), f) == run.accessed.end())
            others.push_back(f);
    std::vector<std::string> probes;
    const Affinity a = measure_affinity(
        copies, run.accessed, others, run,
        [&](std::size_t, std::size_t, const std::string& what) { probes.push_back(what); }, 0, 0);
    // Five fields: one evaluation alone, five rounds of two pairs and a bye.
    EXPECT_EQ(a.evaluations, affinity_evaluations(5));
    EXPECT_EQ(a.evaluations, 6u);
    EXPECT_EQ(probes.size(), 6u);
    ASSERT_EQ(a.fields, run.accessed);
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        EXPECT_DOUBLE_EQ(a.costs.self[i], 2 * run.self[a.fields[i]]) << a.fields[i];
        for (std::size_t j = 0; j < a.fields.size(); ++j) {
            if (i == j)
                continue;
            EXPECT_DOUBLE_EQ(a.costs.pair[i][j], 2 * run.pair[a.fields[i]][a.fields[j]])
                << a.fields[i] << " with " << a.fields[j];
        }
    }
}

OptimizeRequest request(std::uint32_t max_size) {
    OptimizeRequest r;
    r.type = &engine::page_counter_type();
    r.max_size = max_size;
    r.candidates = 3;
    r.references = {*engine::find_builtin_layout("page_counter", "v6.1")};
    return r;
}

std::size_t line_of(const engine::Layout& l, engine::FieldId f) {
    return l.at(f).offset / kLineSize;
}

TEST(Optimizer, ProposesTheModelsOptimumAndVerifiesIt) {
    const PairwiseRun run = counter_run();
    const OptimizeResult r = optimize(request(128), run.recorded, run);
    ASSERT_FALSE(r.proposals.empty());
    const EvaluatedLayout& best = r.proposals.front();
    // usage alone among the accessed fields; min and low together, high and max apart from
    // usage: 2 copies x (100 + 20 + 20 - 10) when high and max do not share, + 2 x 3 when they
    // do (they must: two lines).
    for (const engine::FieldId f : {min, low, high, max})
        EXPECT_NE(line_of(best.layout, usage), line_of(best.layout, f));
    EXPECT_EQ(line_of(best.layout, min), line_of(best.layout, low));
    EXPECT_LE(best.layout.size, 128u);
    EXPECT_EQ(best.layout.align, 64u);
    ASSERT_TRUE(best.model_transfers);
    EXPECT_DOUBLE_EQ(*best.model_transfers, static_cast<double>(best.transfers()));
    EXPECT_EQ(best.transfers(),
              best.layout.at(high).offset / 64 == best.layout.at(max).offset / 64 ? 266u : 260u);
    EXPECT_EQ(best.layout.version, placement_version(best.layout));
    EXPECT_TRUE(best.layout.version.starts_with("opt-"));
    // The current layout (every field on line 0 or 1 of v6.0) and the reference were verified.
    EXPECT_EQ(r.current.layout.version, "v6.0");
    EXPECT_GT(r.current.transfers(), best.transfers());
    ASSERT_EQ(r.references.size(), 1u);
    EXPECT_EQ(r.references[0].layout.version, "v6.1");
    EXPECT_EQ(r.evaluations, 1 + 6 + r.proposals.size() + 1);
    for (std::size_t i = 1; i < r.proposals.size(); ++i)
        EXPECT_LE(r.proposals[i - 1].transfers(), r.proposals[i].transfers());
    // Summed per field over the copies.
    EXPECT_EQ(r.current.field_transfers.size(), kCount);
}

TEST(Optimizer, AMaxSizeTooSmallForTheFieldsIsRefused) {
    // The fields of v6.0 (112 bytes) need two lines: one line is refused.
    EXPECT_THROW(optimize(request(64), counter_run().recorded, counter_run()), OptimizeError);
    EXPECT_THROW(optimize(request(32), counter_run().recorded, counter_run()), OptimizeError);
}

TEST(Optimizer, KeepsTheOrderAsked) {
    PairwiseRun run = counter_run();
    OptimizeRequest r = request(192);
    r.keep_order = {"parent", "usage", "max"}; // v6.0 order: usage, max, parent
    const OptimizeResult out = optimize(r, run.recorded, run);
    for (const EvaluatedLayout& p : out.proposals) {
        EXPECT_LT(p.layout.at(usage).offset, p.layout.at(max).offset);
        EXPECT_LT(p.layout.at(max).offset, p.layout.at(parent).offset);
    }
}

TEST(Optimizer, RefusesWhatItCannotDo) {
    const PairwiseRun run = counter_run();
    OptimizeRequest r = request(192);
    r.keep_order = {"nonsense"};
    EXPECT_THROW(optimize(r, run.recorded, run), OptimizeError);
    r.keep_order = {"local_watermark"}; // a v6.15 field: not in the run's v6.0 layout
    EXPECT_THROW(optimize(r, run.recorded, run), OptimizeError);
    OptimizeRequest other = request(192);
    other.type = &engine::res_counter_type(); // the run has none
    EXPECT_THROW(optimize(other, run.recorded, run), OptimizeError);
}

} // namespace
} // namespace hitmap::layoutopt
