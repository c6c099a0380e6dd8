// PageCounter (mm/page_counter.c, reference/memcg.md §1.4), single-threaded with exact values,
// under each of the v6.0 / v6.1 / v6.15 layouts and semantics; and MemcgHierarchy.
#include "engine/memcg/mem_cgroup.hpp"
#include "engine/memcg/page_counter.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

using testing::Chain;
using testing::PcVersion;

class PageCounterTest : public ::testing::TestWithParam<PcVersion> {
protected:
    Chain chain{GetParam()};
    PageCounter& root = chain.root;
    PageCounter& top = chain.top;
    PageCounter& mid = chain.mid;
    PageCounter& leaf = chain.leaf;

    void expect_usage(std::int64_t l, std::int64_t m, std::int64_t t, std::int64_t r) {
        EXPECT_EQ(leaf.usage(), l);
        EXPECT_EQ(mid.usage(), m);
        EXPECT_EQ(top.usage(), t);
        EXPECT_EQ(root.usage(), r);
    }
    void set_max(PageCounter& c, std::int64_t max) { c.set_limits(0, 0, kPageCounterMax, max); }
    bool v6_15() const { return GetParam().semantics.v6_15_fields; }
};

TEST_P(PageCounterTest, ConstructorDefaults) {
    for (PageCounter* c : chain.levels()) {
        EXPECT_EQ(c->usage(), 0);
        EXPECT_EQ(c->peek(pc::max), static_cast<std::uint64_t>(kPageCounterMax));
        EXPECT_EQ(c->read_high(Site::memcg_high_check), kPageCounterMax);
        EXPECT_EQ(c->peek(pc::min), 0u);
        EXPECT_EQ(c->failcnt(), 0u);
        if (v6_15()) {
            EXPECT_EQ(c->peek(pc::protection_support), 1u);
            EXPECT_EQ(c->peek(pc::track_failcnt), 1u);
        }
    }
    EXPECT_EQ(leaf.parent(), &mid);
    EXPECT_EQ(leaf.parent_probed(Site::page_counter_try_charge), &mid);
    EXPECT_EQ(top.parent_probed(Site::page_counter_try_charge), &root);
    EXPECT_EQ(root.parent_probed(Site::page_counter_try_charge), nullptr);
    EXPECT_EQ(kPageCounterMax, INT64_MAX / 4096);
}

TEST_P(PageCounterTest, TryChargeUpdatesEveryLevelUpToRoot) {
    PageCounter* fail = nullptr;
    EXPECT_TRUE(leaf.try_charge(5, &fail));
    EXPECT_EQ(fail, nullptr);
    expect_usage(5, 5, 5, 5);
    EXPECT_TRUE(leaf.try_charge(3, &fail));
    expect_usage(8, 8, 8, 8);
    EXPECT_TRUE(mid.try_charge(4, &fail)); // a charge starts at its own level
    expect_usage(8, 12, 12, 12);
    EXPECT_TRUE(root.try_charge(1, &fail));
    expect_usage(8, 12, 12, 13);
    EXPECT_EQ(fail, nullptr);
}

TEST_P(PageCounterTest, ChargeUpToExactlyMaxSucceeds) {
    set_max(leaf, 10);
    PageCounter* fail = nullptr;
    EXPECT_TRUE(leaf.try_charge(10, &fail));
    expect_usage(10, 10, 10, 10);
    EXPECT_EQ(leaf.failcnt(), 0u);
}

TEST_P(PageCounterTest, FailureAtEachLevelLeavesUsageUnchanged) {
    set_max(leaf, 100);
    set_max(mid, 50);
    set_max(top, 30);
    set_max(root, 20);
    PageCounter* fail = nullptr;
    ASSERT_TRUE(leaf.try_charge(8, &fail));
    expect_usage(8, 8, 8, 8);

    EXPECT_FALSE(leaf.try_charge(13, &fail)); // root: 21 > 20
    EXPECT_EQ(fail, &root);
    expect_usage(8, 8, 8, 8);
    EXPECT_FALSE(leaf.try_charge(23, &fail)); // top: 31 > 30
    EXPECT_EQ(fail, &top);
    expect_usage(8, 8, 8, 8);
    EXPECT_FALSE(leaf.try_charge(43, &fail)); // mid: 51 > 50
    EXPECT_EQ(fail, &mid);
    expect_usage(8, 8, 8, 8);
    EXPECT_FALSE(leaf.try_charge(93, &fail)); // leaf: 101 > 100
    EXPECT_EQ(fail, &leaf);
    expect_usage(8, 8, 8, 8);
    EXPECT_FALSE(leaf.try_charge(13, &fail));
    EXPECT_EQ(fail, &root);

    EXPECT_EQ(leaf.failcnt(), 1u);
    EXPECT_EQ(mid.failcnt(), 1u);
    EXPECT_EQ(top.failcnt(), 1u);
    EXPECT_EQ(root.failcnt(), 2u);

    EXPECT_TRUE(leaf.try_charge(12, &fail)); // exactly root's max
    expect_usage(20, 20, 20, 20);
}

TEST_P(PageCounterTest, WatermarkIsTheMaxUsageSeen) {
    PageCounter* fail = nullptr;
    ASSERT_TRUE(leaf.try_charge(5, &fail));
    ASSERT_TRUE(leaf.try_charge(7, &fail));
    leaf.uncharge(10);
    expect_usage(2, 2, 2, 2);
    ASSERT_TRUE(leaf.try_charge(3, &fail));
    for (PageCounter* c : chain.levels()) {
        EXPECT_EQ(c->watermark(), 12);
        if (v6_15()) {
            EXPECT_EQ(c->peek(pc::local_watermark), 12u);
        }
        EXPECT_GE(c->watermark(), c->usage());
    }
    // A charge that fails at top has raised the watermark of the levels below it (the kernel
    // updates each level's watermark before walking up), never the failing level's or above.
    set_max(top, 20);
    EXPECT_FALSE(leaf.try_charge(16, &fail));
    EXPECT_EQ(fail, &top);
    expect_usage(5, 5, 5, 5);
    EXPECT_EQ(leaf.watermark(), 21);
    EXPECT_EQ(mid.watermark(), 21);
    EXPECT_EQ(top.watermark(), 12);
    EXPECT_EQ(root.watermark(), 12);
}

TEST_P(PageCounterTest, UnchargeReturnsUsageToZero) {
    PageCounter* fail = nullptr;
    for (int i = 1; i <= 10; ++i)
        ASSERT_TRUE(leaf.try_charge(i, &fail));
    expect_usage(55, 55, 55, 55);
    leaf.uncharge(50);
    expect_usage(5, 5, 5, 5);
    leaf.uncharge(5);
    expect_usage(0, 0, 0, 0);
    EXPECT_EQ(root.watermark(), 55);
}

TEST_P(PageCounterTest, CancelBelowZeroClampsToZero) {
    PageCounter* fail = nullptr;
    ASSERT_TRUE(mid.try_charge(6, &fail));
    ASSERT_TRUE(leaf.try_charge(2, &fail));
    expect_usage(2, 8, 8, 8);
    leaf.cancel(5); // only this level
    expect_usage(0, 8, 8, 8);
    leaf.uncharge(7); // leaf clamps again, the others drop by 7
    expect_usage(0, 1, 1, 1);
    leaf.uncharge(3);
    expect_usage(0, 0, 0, 0);
}

TEST_P(PageCounterTest, ChargeIgnoresMax) {
    set_max(leaf, 4);
    leaf.charge(10);
    expect_usage(10, 10, 10, 10);
    EXPECT_EQ(leaf.watermark(), 10);
    EXPECT_EQ(root.watermark(), 10);
    EXPECT_EQ(leaf.failcnt(), 0u);
}

TEST_P(PageCounterTest, SetLimits) {
    top.set_limits(16, 32, 1000, 2000);
    EXPECT_EQ(top.peek(pc::min), 16u);
    EXPECT_EQ(top.peek(pc::low), 32u);
    EXPECT_EQ(top.read_high(Site::memcg_high_check), 1000);
    EXPECT_EQ(top.peek(pc::max), 2000u);
}

TEST_P(PageCounterTest, ChildrenMinUsageOfParentEqualsChildMinUsage) {
    top.set_limits(16, 32, kPageCounterMax, kPageCounterMax);
    PageCounter* fail = nullptr;
    ASSERT_TRUE(leaf.try_charge(10, &fail));
    EXPECT_EQ(top.min_usage(), 10);
    EXPECT_EQ(top.low_usage(), 10);
    EXPECT_EQ(root.children_min_usage(), 10);
    EXPECT_EQ(root.peek(pc::children_low_usage), 10u);
    ASSERT_TRUE(leaf.try_charge(10, &fail));
    EXPECT_EQ(top.min_usage(), 16); // min(usage, memory.min)
    EXPECT_EQ(top.low_usage(), 20);
    EXPECT_EQ(root.children_min_usage(), 16);
    EXPECT_EQ(root.peek(pc::children_low_usage), 20u);
    ASSERT_TRUE(leaf.try_charge(20, &fail));
    EXPECT_EQ(top.min_usage(), 16);
    EXPECT_EQ(top.low_usage(), 32);
    EXPECT_EQ(root.children_min_usage(), 16);
    EXPECT_EQ(root.peek(pc::children_low_usage), 32u);
    // Levels without protection propagate nothing.
    EXPECT_EQ(leaf.min_usage(), 0);
    EXPECT_EQ(mid.children_min_usage(), 0);
    EXPECT_EQ(top.children_min_usage(), 0);
    EXPECT_EQ(root.min_usage(), 0); // the root has no parent: returns at once

    leaf.uncharge(30);
    EXPECT_EQ(top.min_usage(), 10);
    EXPECT_EQ(root.children_min_usage(), 10);
    leaf.uncharge(10);
    EXPECT_EQ(top.min_usage(), 0);
    EXPECT_EQ(top.low_usage(), 0);
    EXPECT_EQ(root.children_min_usage(), 0);
    EXPECT_EQ(root.peek(pc::children_low_usage), 0u);
}

// Counts rmw records on one field of one object in a trace of `charges` one-page charges.
struct ProtectionTrace {
    std::size_t min_usage_rmw = 0; // on top
    std::size_t low_usage_rmw = 0; // on top
    std::size_t other_rmw = 0;     // min_usage/low_usage of any other object
    std::size_t children_rmw = 0;  // root's children_min_usage
};

ProtectionTrace trace_protection(const PcVersion& v, int charges) {
    Chain chain(v);
    chain.top.set_limits(16, 32, kPageCounterMax, kPageCounterMax);
    TraceBuffer buffer(1 << 16, TraceBuffer::read_tsc());
    {
        ThreadTraceScope scope(&buffer);
        PageCounter* fail = nullptr;
        for (int i = 0; i < charges; ++i) {
            EXPECT_TRUE(chain.leaf.try_charge(1, &fail));
            buffer.end_operation();
        }
    }
    EXPECT_EQ(buffer.dropped_records(), 0u);
    ProtectionTrace out;
    for (const TraceRecord& r : buffer.records()) {
        if (r.kind() != AccessKind::rmw)
            continue;
        const bool prot = r.field == pc::min_usage || r.field == pc::low_usage;
        if (r.object == chain.top.object().id() && r.field == pc::min_usage)
            ++out.min_usage_rmw;
        else if (r.object == chain.top.object().id() && r.field == pc::low_usage)
            ++out.low_usage_rmw;
        else if (prot)
            ++out.other_rmw;
        if (r.object == chain.root.object().id() && r.field == pc::children_min_usage)
            ++out.children_rmw;
    }
    EXPECT_EQ(chain.top.min_usage(), 16);
    EXPECT_EQ(chain.root.children_min_usage(), 16);
    return out;
}

TEST_P(PageCounterTest, ProtectionExchangesPerCharge) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    const ProtectionTrace t = trace_protection(GetParam(), 40);
    if (GetParam().semantics.propagation == ProtectionPropagation::always_exchange) {
        // v6.0: an xchg of min_usage and low_usage on every charge, protection stable or not.
        EXPECT_EQ(t.min_usage_rmw, 40u);
        EXPECT_EQ(t.low_usage_rmw, 40u);
    } else {
        // v6.1+: only while the protected amount still changes (usage 1..16 / 1..32).
        EXPECT_EQ(t.min_usage_rmw, 16u);
        EXPECT_EQ(t.low_usage_rmw, 32u);
    }
    EXPECT_EQ(t.other_rmw, 0u);
    EXPECT_EQ(t.children_rmw, 16u); // the parent is only touched when the amount changes
}

INSTANTIATE_TEST_SUITE_P(Versions, PageCounterTest, ::testing::ValuesIn(testing::pc_versions()),
                         [](const auto& info) {
                             return testing::version_test_name(info.param.name);
                         });

// ---- v6.15 only: the two bools of line 2 ----

TEST(PageCounterV615, FailcntOnlyWhenTracked) {
    Chain chain(testing::pc_versions()[2]);
    chain.mid.set_limits(0, 0, kPageCounterMax, 4);
    chain.mid.set_track_failcnt(false);
    PageCounter* fail = nullptr;
    EXPECT_FALSE(chain.leaf.try_charge(5, &fail));
    EXPECT_EQ(fail, &chain.mid);
    EXPECT_EQ(chain.mid.failcnt(), 0u);
    EXPECT_EQ(chain.mid.peek(pc::track_failcnt), 0u);
    chain.mid.set_track_failcnt(true);
    EXPECT_FALSE(chain.leaf.try_charge(5, &fail));
    EXPECT_EQ(chain.mid.failcnt(), 1u);
    for (PageCounter* c : chain.levels())
        EXPECT_EQ(c->usage(), 0);
}

TEST(PageCounterV615, ProtectionIsTrackedOnlyWhenTheChargedCounterSupportsIt) {
    Chain chain(testing::pc_versions()[2]);
    chain.top.set_limits(16, 32, kPageCounterMax, kPageCounterMax);
    chain.leaf.set_protection_support(false); // read once, at the counter being charged
    PageCounter* fail = nullptr;
    ASSERT_TRUE(chain.leaf.try_charge(10, &fail));
    EXPECT_EQ(chain.top.min_usage(), 0);
    EXPECT_EQ(chain.root.children_min_usage(), 0);
    ASSERT_TRUE(chain.mid.try_charge(10, &fail)); // mid supports it
    EXPECT_EQ(chain.top.min_usage(), 16);
    EXPECT_EQ(chain.root.children_min_usage(), 16);
}

TEST(PageCounterV615, FlagsAreNoOpsBeforeV615) {
    Chain chain(testing::pc_versions()[1]); // v6.1 layout has neither bool
    chain.mid.set_limits(0, 0, kPageCounterMax, 4);
    chain.mid.set_track_failcnt(false); // ignored: failcnt always counted before v6.15
    chain.leaf.set_protection_support(false);
    PageCounter* fail = nullptr;
    EXPECT_FALSE(chain.leaf.try_charge(5, &fail));
    EXPECT_EQ(chain.mid.failcnt(), 1u);
}

// ---- MemcgHierarchy ----

std::vector<std::string> counter_names(const ObjectRegistry& registry) {
    std::vector<std::string> names;
    for (const ObjectInfo& o : registry.objects())
        names.push_back(o.name);
    return names;
}

TEST(MemcgHierarchy, NamesAndParents) {
    const auto& v = testing::pc_versions()[2];
    ObjectRegistry registry;
    HierarchyConfig config;
    MemcgHierarchy tree(registry, v.memcg_layout(), v.semantics, config);
    ASSERT_EQ(tree.levels().size(), 4u);
    EXPECT_EQ(counter_names(registry),
              (std::vector<std::string>{"root", "top", "top/mid", "top/mid/leaf"}));
    EXPECT_EQ(tree.root().path(), "root");
    EXPECT_TRUE(tree.root().is_root());
    EXPECT_EQ(tree.leaf().path(), "top/mid/leaf");
    EXPECT_FALSE(tree.leaf().is_root());
    for (std::size_t i = 1; i < tree.levels().size(); ++i) {
        EXPECT_EQ(tree.levels()[i]->parent(), tree.levels()[i - 1].get());
        EXPECT_EQ(tree.levels()[i]->memory().parent(), &tree.levels()[i - 1]->memory());
        EXPECT_EQ(tree.levels()[i]->memory().object().id(), i);
    }

    ObjectRegistry r1, r2, r5;
    config.depth = 1;
    MemcgHierarchy one(r1, v.memcg_layout(), v.semantics, config);
    EXPECT_EQ(counter_names(r1), (std::vector<std::string>{"root", "leaf"}));
    config.depth = 2;
    MemcgHierarchy two(r2, v.memcg_layout(), v.semantics, config);
    EXPECT_EQ(counter_names(r2), (std::vector<std::string>{"root", "top", "top/leaf"}));
    config.depth = 5;
    MemcgHierarchy five(r5, v.memcg_layout(), v.semantics, config);
    EXPECT_EQ(counter_names(r5), (std::vector<std::string>{"root", "l1", "l1/l2", "l1/l2/l3",
                                                           "l1/l2/l3/l4", "l1/l2/l3/l4/l5"}));
}

TEST(MemcgHierarchy, LimitsPhaseAndFlags) {
    const auto& v = testing::pc_versions()[2];
    ObjectRegistry registry;
    HierarchyConfig config;
    config.phase = 24;
    config.top_min = 16;
    config.top_low = 32;
    config.leaf_high = 100;
    config.leaf_max = 200;
    MemcgHierarchy tree(registry, v.memcg_layout(), v.semantics, config);
    const auto& levels = tree.levels();
    PageCounter& top = levels[1]->memory();
    PageCounter& mid = levels[2]->memory();
    PageCounter& leaf = levels[3]->memory();
    EXPECT_EQ(top.peek(pc::min), 16u);
    EXPECT_EQ(top.peek(pc::low), 32u);
    EXPECT_EQ(top.peek(pc::max), static_cast<std::uint64_t>(kPageCounterMax));
    EXPECT_EQ(mid.peek(pc::min), 0u);
    EXPECT_EQ(leaf.peek(pc::min), 0u);
    EXPECT_EQ(leaf.read_high(Site::memcg_high_check), 100);
    EXPECT_EQ(leaf.peek(pc::max), 200u);
    for (const auto& level : levels) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(level->memory().object().address()) % 64, 24u);
        EXPECT_EQ(registry.at(level->memory().object().id()).phase, 24u);
        EXPECT_EQ(level->memory().peek(pc::track_failcnt), 0u);
        // The root's memory counter tracks protection too; swap never does.
        EXPECT_EQ(level->memory().peek(pc::protection_support), 1u);
        EXPECT_EQ(level->swap().peek(pc::protection_support), 0u);
    }

    ObjectRegistry r1;
    config.depth = 1; // top is the leaf: it takes both the protection and the leaf limits
    MemcgHierarchy one(r1, v.memcg_layout(), v.semantics, config);
    PageCounter& only = one.leaf().memory();
    EXPECT_EQ(only.peek(pc::min), 16u);
    EXPECT_EQ(only.peek(pc::low), 32u);
    EXPECT_EQ(only.read_high(Site::memcg_high_check), 100);
    EXPECT_EQ(only.peek(pc::max), 200u);
}

} // namespace
} // namespace hitmap::engine
