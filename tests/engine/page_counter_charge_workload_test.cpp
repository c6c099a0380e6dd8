// The page-counter-charge workload (seed 001): its description, parameter validation, and
// what a run returns (ops, stats, object registry, traces, layout override).
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"
#include "engine/workloads/page_counter_charge.hpp"
#include "engine/workloads/workload.hpp"
#include "tests/engine/workload_test_support.hpp"

#include <atomic>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <set>

namespace hitmap::engine {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using json = nlohmann::json;

const Workload& workload() {
    return find_workload("page-counter-charge");
}

using workload_test::config_for;

std::string validate_error(const WorkloadRunConfig& c) {
    return workload_test::validate_error(workload(), c);
}

TEST(PageCounterChargeWorkload, Registered) {
    const auto& all = all_workloads();
    ASSERT_GE(all.size(), 1u);
    EXPECT_EQ(all[0]->info().name, "page-counter-charge");
    EXPECT_EQ(&find_workload("page-counter-charge"), all[0]);
    try {
        find_workload("nope");
        FAIL() << "expected WorkloadError";
    } catch (const WorkloadError& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("unknown workload 'nope'"),
                                    HasSubstr("known: page-counter-charge")));
    }
}

TEST(PageCounterChargeWorkload, Info) {
    const WorkloadInfo& info = workload().info();
    EXPECT_EQ(info.seed, "001");
    std::vector<std::string> variants;
    for (const auto& v : info.variants) {
        variants.push_back(v.name);
        EXPECT_FALSE(v.description.empty()) << v.name;
    }
    EXPECT_EQ(variants, (std::vector<std::string>{"v6.0", "v6.0+p1", "v6.0+p2", "v6.0+p3",
                                                  "v6.0+p1-2", "v6.1", "v6.15"}));
    std::map<std::string, json> params;
    for (const auto& p : info.params)
        params[p.name] = p.default_value;
    EXPECT_EQ(params, (std::map<std::string, json>{{"batch", 0u},
                                                   {"depth", 3u},
                                                   {"phase", 0u},
                                                   {"max_pages", 8u},
                                                   {"inflight", 64u},
                                                   {"top_min", 16u},
                                                   {"top_low", 32u},
                                                   {"leaf_max", 0u},
                                                   {"pressure_checks", 1u},
                                                   {"stats", true},
                                                   {"work_ns", 0u}}));
}

// Each patch alone on 6.0-rc1 changes one thing: 1 the atomics, 2 the page_counter layout (and
// nothing else of struct mem_cgroup), 3 the batch; v6.1 has all three.
TEST(PageCounterChargeWorkload, VariantsFollowThePatchSeries) {
    const auto& v = PageCounterChargeWorkload::variants();
    ASSERT_EQ(v.size(), 7u);
    using P = ProtectionPropagation;
    struct Expected {
        const char* name;
        P propagation;
        const char* shape;
        const char* page_counter;
        unsigned batch;
    };
    const Expected expected[] = {
        {"v6.0", P::always_exchange, "v6.0", "v6.0", 32},
        {"v6.0+p1", P::on_change, "v6.0", "v6.0", 32},
        {"v6.0+p2", P::always_exchange, "v6.0", "v6.1", 32},
        {"v6.0+p3", P::always_exchange, "v6.0", "v6.0", 64},
        {"v6.0+p1-2", P::on_change, "v6.0", "v6.1", 32},
        {"v6.1", P::on_change, "v6.1", "v6.1", 64},
        {"v6.15", P::on_change, "v6.15", "v6.15", 64},
    };
    for (std::size_t i = 0; i < v.size(); ++i) {
        SCOPED_TRACE(v[i].name);
        EXPECT_EQ(v[i].name, expected[i].name);
        EXPECT_EQ(v[i].propagation, expected[i].propagation);
        EXPECT_EQ(v[i].shape, expected[i].shape);
        EXPECT_EQ(v[i].layout, expected[i].page_counter);
        EXPECT_EQ(v[i].batch, expected[i].batch);
        EXPECT_EQ(v[i].v6_15_fields, v[i].name == "v6.15");
        EXPECT_NE(find_builtin_layout("page_counter", v[i].layout), nullptr);
    }
}

TEST(PageCounterChargeWorkload, ValidConfigPasses) {
    for (const auto& v : workload().info().variants)
        EXPECT_EQ(validate_error(config_for(v.name, 2, 10)), "") << v.name;
    WorkloadRunConfig c = config_for("v6.1", 1, 10);
    c.params = {{"depth", 16}, {"phase", 56}, {"batch", 16}, {"leaf_max", 100}};
    EXPECT_EQ(validate_error(c), "");
}

TEST(PageCounterChargeWorkload, InvalidConfigsThrowBeforeRunning) {
    EXPECT_THAT(
        validate_error(config_for("v6.2", 1, 10)),
        AllOf(HasSubstr("unknown variant 'v6.2'"),
              HasSubstr("variants: v6.0, v6.0+p1, v6.0+p2, v6.0+p3, v6.0+p1-2, v6.1, v6.15")));
    EXPECT_THAT(validate_error(config_for("v6.1", 0, 10)), HasSubstr("needs at least 1 thread"));

    const auto with = [](json params) {
        WorkloadRunConfig c = config_for("v6.1", 1, 10);
        c.params = std::move(params);
        return validate_error(c);
    };
    EXPECT_THAT(with({{"bogus", 1}}), HasSubstr("unknown parameter 'bogus'"));
    EXPECT_THAT(with({{"depth", "3"}}),
                HasSubstr("page-counter-charge parameter depth must be a whole number in 1..16, "
                          "not \"3\""));
    EXPECT_THAT(with({{"depth", 2.5}}), HasSubstr("parameter depth"));
    EXPECT_THAT(with({{"depth", true}}), HasSubstr("parameter depth"));
    EXPECT_THAT(with({{"depth", -1}}), HasSubstr("depth must be a whole number in 1..16, not -1"));
    EXPECT_THAT(with({{"depth", 0}}), HasSubstr("depth must be a whole number in 1..16, not 0"));
    EXPECT_THAT(with({{"depth", 17}}), HasSubstr("depth must be a whole number in 1..16, not 17"));
    EXPECT_THAT(with({{"phase", 4}}), HasSubstr("phase must be a multiple of 8 below 64"));
    EXPECT_THAT(with({{"phase", 3}}), HasSubstr("phase must be a multiple of 8 below 64"));
    EXPECT_THAT(with({{"phase", 64}}), HasSubstr("phase must be a whole number in 0..56"));
    EXPECT_THAT(with({{"max_pages", 0}}), HasSubstr("max_pages must be a whole number in 1..4096"));
    EXPECT_THAT(with({{"inflight", 0}}), HasSubstr("inflight must be a whole number in 1..65536"));

    // run() validates too: the same error, and nothing runs.
    WorkloadRunConfig c = config_for("v6.1", 1, 10);
    c.params = {{"phase", 12}};
    EXPECT_THROW(workload().run(c, {}), WorkloadError);
}

TEST(PageCounterChargeWorkload, LayoutMissingAFieldOfTheVariantIsALayoutError) {
    WorkloadRunConfig c = config_for("v6.15", 1, 10);
    c.layouts["page_counter"] = *find_builtin_layout("page_counter", "v6.1"); // no local_watermark
    EXPECT_THROW(workload().validate(c), LayoutError);
    c.variant = "v6.1";
    EXPECT_NO_THROW(workload().validate(c));
}

void expect_final_state(const WorkloadResult& r, unsigned threads, std::uint64_t iterations) {
    EXPECT_EQ(r.ops, threads * iterations);
    ASSERT_EQ(r.ops_per_thread.size(), threads);
    for (std::uint64_t ops : r.ops_per_thread)
        EXPECT_EQ(ops, iterations);
    EXPECT_EQ(std::accumulate(r.ops_per_thread.begin(), r.ops_per_thread.end(), std::uint64_t{0}),
              r.ops);
    EXPECT_GT(r.seconds, 0.0);
    EXPECT_EQ(r.stats.at("final_root_usage").get<std::int64_t>(), 0);
    EXPECT_EQ(r.stats.at("charge_failures").get<std::uint64_t>(), 0u);
    EXPECT_GT(r.stats.at("stock_hits").get<std::uint64_t>(), 0u);
    EXPECT_GT(r.stats.at("counter_charges").get<std::uint64_t>(), 0u);
    EXPECT_EQ(r.stats.at("over_high").get<std::uint64_t>(), 0u); // memory.high unlimited
}

TEST(PageCounterChargeWorkload, RunCountsOpsAndLeavesNothingCharged) {
    const WorkloadRunConfig c = config_for("v6.1", 2, 20000);
    const WorkloadResult r = workload().run(c, {});
    expect_final_state(r, 2, 20000);
    EXPECT_TRUE(r.traces.empty());
    EXPECT_EQ(r.resolved_params.at("batch"), 64);
    EXPECT_EQ(r.resolved_params.at("depth"), 3);
    EXPECT_EQ(r.resolved_params.at("layout.mem_cgroup"), "v6.1");
}

TEST(PageCounterChargeWorkload, ObjectNames) {
    const WorkloadResult r = workload().run(config_for("v6.0", 2, 100), {});
    std::vector<std::string> names;
    for (const ObjectInfo& o : r.objects.objects()) {
        EXPECT_EQ(o.id, names.size());
        names.push_back(o.name);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"root", "top", "top/mid", "top/mid/leaf", "stock/0",
                                               "stock/1", "stats_flush_threshold", "vmstats/0",
                                               "vmstats/1"}));
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(r.objects.at(i).layout.type, &mem_cgroup_type());
        EXPECT_EQ(r.objects.at(i).layout.version, "v6.0");
        EXPECT_EQ(r.objects.at(i).layout.at(counter_field(Counter::memory, pc::usage)).offset,
                  0xd0u);
    }
    EXPECT_EQ(r.objects.at(4).layout.type, &memcg_stock_type());
    EXPECT_EQ(r.objects.at(6).layout.type, &memcg_stats_global_type());
    EXPECT_EQ(r.objects.at(7).layout.type, &memcg_percpu_stats_type());

    WorkloadRunConfig deep = config_for("v6.1", 1, 100);
    deep.params = {{"depth", 4}, {"phase", 16}};
    const WorkloadResult d = workload().run(deep, {});
    ASSERT_EQ(d.objects.objects().size(), 8u);
    EXPECT_EQ(d.objects.at(4).name, "l1/l2/l3/l4");
    EXPECT_EQ(d.objects.at(4).phase, 16u);
    EXPECT_EQ(d.objects.at(5).name, "stock/0");
    EXPECT_EQ(d.stats.at("final_root_usage"), 0);
}

TEST(PageCounterChargeWorkload, TracedRun) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    WorkloadRunConfig c = config_for("v6.0", 2, 20000);
    c.trace = TraceOptions{true, 1 << 20, {}};
    const WorkloadResult r = workload().run(c, {});
    expect_final_state(r, 2, 20000);
    ASSERT_EQ(r.traces.size(), 2u);
    std::uint64_t traced_ops = 0;
    std::set<std::uint16_t> objects_seen;
    for (unsigned t = 0; t < 2; ++t) {
        const TraceBuffer& b = *r.traces[t].buffer;
        EXPECT_EQ(r.traces[t].thread, t);
        EXPECT_EQ(b.dropped_records(), 0u);
        EXPECT_EQ(b.traced_operations(), r.ops_per_thread[t]);
        EXPECT_GT(b.records().size(), r.ops_per_thread[t]); // several accesses per operation
        traced_ops += b.traced_operations();
        for (const TraceRecord& rec : b.records()) {
            ASSERT_LT(rec.object, r.objects.objects().size());
            const ObjectInfo& o = r.objects.at(rec.object);
            ASSERT_TRUE(o.layout.has(rec.field));
            ASSERT_EQ(rec.offset, o.layout.at(rec.field).offset);
            ASSERT_EQ(rec.size(), o.layout.at(rec.field).size);
            objects_seen.insert(rec.object);
            if (o.name.starts_with("stock/") || o.name.starts_with("vmstats/")) {
                ASSERT_TRUE(o.name.ends_with("/" + std::to_string(t))); // each thread its own
            }
        }
    }
    EXPECT_EQ(traced_ops, r.ops);
    // every memcg of the hierarchy, both stocks, the global threshold and both CPUs' statistics
    EXPECT_EQ(objects_seen, (std::set<std::uint16_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(PageCounterChargeWorkload, SmallTraceBufferKeepsWholeOperations) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    WorkloadRunConfig c = config_for("v6.1", 1, 5000);
    c.trace = TraceOptions{true, 1000, {}};
    const WorkloadResult r = workload().run(c, {});
    ASSERT_EQ(r.traces.size(), 1u);
    const TraceBuffer& b = *r.traces[0].buffer;
    EXPECT_EQ(r.ops, 5000u);
    EXPECT_LT(b.traced_operations(), r.ops);
    EXPECT_GT(b.traced_operations(), 0u);
    EXPECT_LE(b.records().size(), 1000u);
    EXPECT_GT(b.dropped_records(), 0u);
    EXPECT_EQ(r.stats.at("final_root_usage"), 0);
}

// Duty-cycled windows of all threads count from one origin. (They once counted from each
// buffer's construction, which populating the earlier buffers delayed by milliseconds: the
// threads' windows never overlapped and the trace showed no transfers at all.)
TEST(PageCounterChargeWorkload, TraceWindowsOfAllThreadsShareOneOrigin) {
    if (!HITMAP_PROBES)
        GTEST_SKIP() << "probes compiled out";
    WorkloadRunConfig c = config_for("v6.0", 3, 2000);
    c.trace = TraceOptions{true, 1 << 22, TraceWindow{1'000'000, 10'000'000, 0}};
    const WorkloadResult r = workload().run(c, {});
    ASSERT_EQ(r.traces.size(), 3u);
    const TraceWindow& first = r.traces[0].buffer->window();
    EXPECT_NE(first.origin_ns, 0u) << "the run sets the origin";
    EXPECT_EQ(first.period_ns, 10'000'000u);
    for (const auto& t : r.traces)
        EXPECT_EQ(t.buffer->window().origin_ns, first.origin_ns);
}

TEST(PageCounterChargeWorkload, LayoutOverride) {
    WorkloadRunConfig c = config_for("v6.0", 2, 2000);
    c.layouts["page_counter"] = *find_builtin_layout("page_counter", "v6.1");
    const WorkloadResult r = workload().run(c, {});
    expect_final_state(r, 2, 2000);
    EXPECT_EQ(r.resolved_params.at("layout.mem_cgroup"), "v6.0 with page_counter v6.1");
    EXPECT_EQ(r.resolved_params.at("batch"), 32); // still the variant's batch
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(r.objects.at(i).layout.version, "v6.0 with page_counter v6.1");
        // the padded counter starts on the next line after css and id: 256 + high's 144
        EXPECT_EQ(r.objects.at(i).layout.at(counter_field(Counter::memory, pc::high)).offset,
                  256u + 144u);
    }
}

TEST(PageCounterChargeWorkload, LeafMaxCausesFailures) {
    WorkloadRunConfig c = config_for("v6.15", 2, 5000);
    c.params = {{"leaf_max", 40}, {"batch", 8}};
    const WorkloadResult r = workload().run(c, {});
    EXPECT_EQ(r.ops, 10000u);
    EXPECT_GT(r.stats.at("charge_failures").get<std::uint64_t>(), 0u);
    EXPECT_EQ(r.stats.at("final_root_usage"), 0);
    EXPECT_EQ(r.resolved_params.at("batch"), 8);
    EXPECT_EQ(r.resolved_params.at("leaf_max"), 40);
}

TEST(PageCounterChargeWorkload, HooksRunInEveryWorker) {
    std::atomic<unsigned> started{0}, stopped{0};
    ThreadHooks hooks{[&](unsigned) { started.fetch_add(1); },
                      [&](unsigned) { stopped.fetch_add(1); }};
    const WorkloadResult r = workload().run(config_for("v6.1", 4, 100), hooks);
    EXPECT_EQ(started.load(), 4u);
    EXPECT_EQ(stopped.load(), 4u);
    EXPECT_EQ(r.ops, 400u);
}

} // namespace
} // namespace hitmap::engine
