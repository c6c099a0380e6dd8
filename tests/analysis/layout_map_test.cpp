// The layout view's model: a layout line by line (fields, holes), two layouts compared, and a
// run's heat on them, asserted on the built-in layouts and on tests/data/small.db.
#include "collector/analysis/layout_catalog.hpp"
#include "collector/analysis/layout_map.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"
#include "small_db.hpp"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

using ::testing::Contains;
using ::testing::Not;
using Names = std::vector<std::string>;
using test::SmallDb;

const engine::Layout& builtin(const char* s, const char* v) {
    return *engine::find_builtin_layout(s, v);
}

Names names(const LayoutLine& line) {
    Names out;
    for (const LineField& f : line.fields)
        out.push_back(f.name);
    return out;
}

const LineField* field_named(const LayoutMap& map, const std::string& name) {
    for (const LayoutLine& line : map.lines)
        for (const LineField& f : line.fields)
            if (f.name == name)
                return &f;
    return nullptr;
}

const StructHeat* heat_of(const LayoutCatalog& catalog, std::int64_t run,
                          const engine::StructType& type) {
    for (const StructHeat& h : catalog.heats)
        if (h.run.id == run && h.type == &type)
            return &h;
    return nullptr;
}

TEST(LayoutMap, PageCounterV60IsTwoPackedLines) {
    const LayoutMap map = map_layout(builtin("page_counter", "v6.0"));
    EXPECT_EQ(map.struct_name, "page_counter");
    EXPECT_EQ(map.size, 112u);
    ASSERT_EQ(map.lines.size(), 2u); // 112 bytes: a full line and 48 bytes of the next
    EXPECT_EQ(names(map.lines[0]), (Names{"usage", "min", "low", "high", "max", "emin", "min_usage",
                                          "children_min_usage"}));
    EXPECT_EQ(names(map.lines[1]),
              (Names{"elow", "low_usage", "children_low_usage", "watermark", "failcnt", "parent"}));
    EXPECT_EQ(map.lines[1].begin, 64u);
    EXPECT_EQ(map.lines[1].end, 112u);
    EXPECT_TRUE(map.lines[0].gaps.empty());
    EXPECT_TRUE(map.lines[1].gaps.empty());
    EXPECT_EQ(map.lines_with_fields(), 2u);
    // No run: no counts at all, not zeros.
    EXPECT_FALSE(map.heat);
    EXPECT_FALSE(map.lines[0].fields[0].counts);
}

TEST(LayoutMap, PageCounterV61PadsUsageAlone) {
    const LayoutMap map = map_layout(builtin("page_counter", "v6.1"));
    ASSERT_EQ(map.lines.size(), 3u);
    EXPECT_EQ(names(map.lines[0]), (Names{"usage"}));
    ASSERT_EQ(map.lines[0].gaps.size(), 1u);
    EXPECT_EQ(map.lines[0].gaps[0].offset, 8u);
    EXPECT_EQ(map.lines[0].gaps[0].size, 56u);
    EXPECT_EQ(names(map.lines[2]), (Names{"min", "low", "high", "max", "parent"}));
    ASSERT_EQ(map.lines[2].gaps.size(), 1u); // tail padding to the 64-byte alignment
    EXPECT_EQ(map.lines[2].gaps[0].offset, 168u);
    EXPECT_EQ(map.lines[2].gaps[0].size, 24u);
}

TEST(LayoutMap, AFieldAcrossALineBoundaryIsOnBothLines) {
    engine::Layout odd{&engine::page_counter_type(), "odd", 72, 8, {}};
    odd.placement.resize(engine::page_counter_type().fields.size());
    odd.placement[engine::pc::usage] = engine::FieldPlacement{60, 8};
    const LayoutMap map = map_layout(odd);
    ASSERT_EQ(map.lines.size(), 2u);
    ASSERT_EQ(map.lines[0].fields.size(), 1u);
    ASSERT_EQ(map.lines[1].fields.size(), 1u);
    EXPECT_EQ(map.lines[0].fields[0].offset, 60u);
    EXPECT_EQ(map.lines[0].fields[0].size, 4u);
    EXPECT_EQ(map.lines[1].fields[0].offset, 64u);
    EXPECT_EQ(map.lines[1].fields[0].size, 4u);
    EXPECT_EQ(map.lines[0].gaps.size(), 1u);
    EXPECT_EQ(map.lines[1].gaps[0].offset, 68u);
}

TEST(LayoutMap, V61MovesTheLimitsOffUsagesLine) {
    const LayoutPair pair = compare_layouts(builtin("page_counter", "v6.0"), nullptr,
                                            builtin("page_counter", "v6.1"), nullptr);
    // failcnt stays on line 1 (96 -> 120); parent goes to line 2 with the limits, but it was
    // not on usage's line before either: only the seven that leave usage's line are outlined.
    EXPECT_EQ(pair.moved,
              (Names{"min", "low", "high", "max", "emin", "min_usage", "children_min_usage"}));
    ASSERT_EQ(pair.hot.size(), 1u);
    EXPECT_EQ(pair.hot[0].field, "usage");
    EXPECT_EQ(pair.hot[0].left,
              (Names{"min", "low", "high", "max", "emin", "min_usage", "children_min_usage"}));
    EXPECT_TRUE(pair.hot[0].joined.empty());
    for (const LayoutMap* side : {&pair.a, &pair.b}) {
        EXPECT_TRUE(field_named(*side, "max")->moved);
        EXPECT_FALSE(field_named(*side, "parent")->moved);
        EXPECT_FALSE(field_named(*side, "usage")->moved);
        EXPECT_FALSE(field_named(*side, "failcnt")->moved);
    }
    EXPECT_THROW(compare_layouts(builtin("page_counter", "v6.0"), nullptr,
                                 builtin("res_counter", "v2.6.31"), nullptr),
                 engine::LayoutError);
}

TEST(LayoutCatalog, SmallDbStoresEachRunsLayouts) {
    SmallDb small;
    const LayoutCatalog catalog = read_layout_catalog(small.db);
    const auto stored = [&](const char* s, const char* v) -> const StoredLayout* {
        for (const StoredLayout& l : catalog.layouts)
            if (l.layout.type->name == s && l.layout.version == v)
                return &l;
        return nullptr;
    };
    ASSERT_TRUE(stored("mem_cgroup", "v6.0"));
    EXPECT_EQ(stored("mem_cgroup", "v6.0")->runs, (std::vector<std::int64_t>{1}));
    EXPECT_EQ(stored("mem_cgroup", "v6.1")->runs, (std::vector<std::int64_t>{2}));
    // Both page-counter runs used the same stock; the res_counter runs one layout each struct.
    EXPECT_EQ(stored("memcg_stock_pcp", "v5.10")->runs, (std::vector<std::int64_t>{1, 2}));
    EXPECT_EQ(stored("res_counter", "v2.6.31")->runs, (std::vector<std::int64_t>{3, 4}));
    // A database keeps the layout as the run had it: small.db predates the model's objcg field,
    // so its v6.0 is not today's built-in v6.0, placement for placement.
    const engine::Layout& v60 = stored("mem_cgroup", "v6.0")->layout;
    EXPECT_TRUE(same_layout(v60, v60));
    EXPECT_FALSE(v60.has(engine::mcg::objcg));
    EXPECT_TRUE(builtin("mem_cgroup", "v6.0").has(engine::mcg::objcg));
    EXPECT_FALSE(same_layout(v60, builtin("mem_cgroup", "v6.0")));
    EXPECT_FALSE(heat_of(catalog, 3, engine::mem_cgroup_type()));
}

TEST(LayoutCatalog, HeatSumsTheRunsObjectsOfTheStruct) {
    SmallDb small;
    const LayoutCatalog catalog = read_layout_catalog(small.db);
    const StructHeat* heat = heat_of(catalog, 1, engine::mem_cgroup_type());
    ASSERT_TRUE(heat);
    EXPECT_EQ(heat->objects, 4u); // root, top, top/mid, top/mid/leaf
    ASSERT_EQ(heat->recorded.size(), 1u);
    EXPECT_EQ(heat->recorded[0].version, "v6.0");

    // memory.usage: every stored row of the field, whichever object and line it is on.
    const auto data = store::read_c2c(small.db, 1);
    ASSERT_TRUE(data);
    c2c::ClassCounts usage;
    for (const auto& fs : data->result.fields)
        if (fs.field_name == "memory.usage")
            usage += fs.counts;
    ASSERT_GT(usage.transfers(), 0u);
    const auto usage_id = *engine::mem_cgroup_type().field_id("memory.usage");
    EXPECT_EQ(heat->fields[usage_id], usage);
    // v6.0 has no local_watermark: run 1 could not count it. The trace is complete, so a field
    // v6.0 places is counted, if only as zero.
    EXPECT_FALSE(heat->fields[*engine::mem_cgroup_type().field_id("memory.local_watermark")]);
    for (engine::FieldId f = 0; f < heat->fields.size(); ++f)
        EXPECT_EQ(heat->fields[f].has_value(), heat->recorded[0].has(f))
            << engine::mem_cgroup_type().fields[f];

    const LayoutMap own = map_layout(heat->recorded[0], heat);
    ASSERT_TRUE(own.heat);
    EXPECT_TRUE(own.heat->same_layout);
    EXPECT_EQ(own.heat->traced_ops, data->trace.traced_ops);
    EXPECT_EQ(field_named(own, "memory.usage")->counts, usage);
    // On another layout the counts are shown, and said to be another placement's.
    const LayoutMap other = map_layout(builtin("mem_cgroup", "v6.1"), heat);
    EXPECT_FALSE(other.heat->same_layout);
    EXPECT_EQ(other.heat->recorded, (Names{"v6.0"}));
    EXPECT_THROW(map_layout(builtin("page_counter", "v6.0"), heat), engine::LayoutError);
}

// A memcg run records mem_cgroups: page_counter's heat is its four embedded counters'.
TEST(LayoutCatalog, PageCounterHeatComesFromTheCountersInsideMemCgroups) {
    SmallDb small;
    const LayoutCatalog catalog = read_layout_catalog(small.db);
    const StructHeat* heat = heat_of(catalog, 1, engine::page_counter_type());
    ASSERT_TRUE(heat);
    EXPECT_EQ(heat->container, &engine::mem_cgroup_type());
    EXPECT_EQ(heat->objects, 4u);
    EXPECT_EQ(heat->instances, 16u); // memory, swap, kmem, tcpmem in each
    const auto data = store::read_c2c(small.db, 1);
    ASSERT_TRUE(data);
    c2c::ClassCounts usage, max;
    for (const auto& fs : data->result.fields) {
        const auto member = engine::counter_member(fs.field);
        if (member && member->field == engine::pc::usage)
            usage += fs.counts;
        if (member && member->field == engine::pc::max)
            max += fs.counts;
    }
    ASSERT_GT(usage.transfers(), 0u);
    EXPECT_EQ(heat->fields[engine::pc::usage], usage);
    EXPECT_EQ(heat->fields[engine::pc::max], max);
    EXPECT_FALSE(heat->fields[engine::pc::local_watermark]); // v6.0 has none

    // The run's counters were laid out as v6.0's page_counter: its own heat. small.db predates
    // the model's objcg field, so the whole mem_cgroup is not today's v6.0, but the counters are.
    const LayoutMap own = map_layout(builtin("page_counter", "v6.0"), heat);
    ASSERT_TRUE(own.heat);
    EXPECT_TRUE(own.heat->same_layout);
    EXPECT_EQ(field_named(own, "usage")->counts, usage);
    const LayoutMap other = map_layout(builtin("page_counter", "v6.1"), heat);
    EXPECT_FALSE(other.heat->same_layout);
    EXPECT_EQ(other.heat->recorded, (Names{"mem_cgroup v6.0"}));
    // And run 2's counters are v6.1's.
    const StructHeat* v61 = heat_of(catalog, 2, engine::page_counter_type());
    ASSERT_TRUE(v61);
    EXPECT_TRUE(map_layout(builtin("page_counter", "v6.1"), v61).heat->same_layout);
    // The res_counter runs embed no page_counter.
    EXPECT_FALSE(heat_of(catalog, 3, engine::page_counter_type()));
}

TEST(LayoutCatalog, RecordsLayoutComparesOnlyTheCountersOfAComposedMemCgroup) {
    const engine::Layout& pc60 = builtin("page_counter", "v6.0");
    const engine::Layout& pc61 = builtin("page_counter", "v6.1");
    const engine::Layout& mcg60 = builtin("mem_cgroup", "v6.0");
    EXPECT_TRUE(records_layout(mcg60, mcg60));
    EXPECT_FALSE(records_layout(mcg60, builtin("mem_cgroup", "v6.1")));
    EXPECT_TRUE(records_layout(mcg60, pc60));
    EXPECT_FALSE(records_layout(mcg60, pc61));
    EXPECT_TRUE(records_layout(engine::compose_mem_cgroup("v6.0", pc61), pc61));
    EXPECT_FALSE(records_layout(pc60, pc61));
    // A user's mem_cgroup has no shape to compose a page_counter into.
    engine::Layout user = mcg60;
    user.version = "mine.json";
    EXPECT_FALSE(records_layout(user, pc60));
}

TEST(LayoutCatalog, MemCgroupV61TakesTheHotLinesLimitsAway) {
    SmallDb small;
    const LayoutCatalog catalog = read_layout_catalog(small.db);
    const StructHeat* v60 = heat_of(catalog, 1, engine::mem_cgroup_type());
    const StructHeat* v61 = heat_of(catalog, 2, engine::mem_cgroup_type());
    ASSERT_TRUE(v60 && v61);
    // Each run's layout with its own counts.
    const LayoutPair pair = compare_layouts(v60->recorded.at(0), v60, v61->recorded.at(0), v61);
    EXPECT_TRUE(pair.a.heat->same_layout && pair.b.heat->same_layout);
    ASSERT_EQ(pair.hot.size(), 1u);
    EXPECT_EQ(pair.hot[0].field, "memory.usage");
    EXPECT_THAT(pair.hot[0].left, Contains("memory.high"));
    EXPECT_THAT(pair.hot[0].left, Contains("css.parent"));
    EXPECT_THAT(pair.hot[0].b_sharers, Not(Contains("memory.high")));
    EXPECT_TRUE(field_named(pair.b, "memory.high")->moved);
    // Padding takes transfers off the limits: fewer on memory.high in run 2 than in run 1.
    EXPECT_LT(field_named(pair.b, "memory.high")->counts->transfers(),
              field_named(pair.a, "memory.high")->counts->transfers());
}

// Samples count only what was sampled: a field without one is unknown, not zero.
TEST(LayoutCatalog, SampledRunsLeaveUnsampledFieldsUnknown) {
    const engine::Layout& v60 = builtin("page_counter", "v6.0");
    store::C2cData data;
    data.objects.push_back({0, "counter", v60, 0});
    c2c::FieldStats usage;
    usage.field = engine::pc::usage;
    usage.field_name = "usage";
    usage.counts.loads = 3;
    usage.counts.load_hitm = 2;
    data.result.fields.push_back(usage);
    const store::RunRecord run{.id = 7};

    data.trace.clock = "sampled";
    // PMU samples: stores carry no snoop result (run --c2c hardware's KnownCounts).
    data.trace.known = {.store_hitm = false, .store_shared = false, .invalidations = false};
    auto heat = struct_heat(run, data, engine::page_counter_type());
    ASSERT_TRUE(heat);
    EXPECT_EQ(heat->fields[engine::pc::usage]->load_hitm, 2u);
    EXPECT_FALSE(heat->fields[engine::pc::max]);
    // The map carries what the source could count, so the strips show the rest as unknown.
    EXPECT_EQ(heat->known, data.trace.known);
    EXPECT_EQ(map_layout(v60, &*heat).heat->known, data.trace.known);

    data.trace.clock = "access";
    heat = struct_heat(run, data, engine::page_counter_type());
    EXPECT_EQ(heat->fields[engine::pc::max], c2c::ClassCounts{});
    EXPECT_FALSE(struct_heat(run, data, engine::res_counter_type()));
}

} // namespace
} // namespace hitmap::analysis
