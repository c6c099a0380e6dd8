// The kernel-memory workloads (seeds 000 and 004) on real threads: what their parameters refuse,
// and that every object allocated is freed and every page given back whatever the interleaving.
#include "engine/workloads/objcg_free.hpp"
#include "tests/engine/workload_test_support.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

using ::testing::HasSubstr;
using workload_test::config_for;
using workload_test::validate_error;

WorkloadRunConfig with(WorkloadRunConfig c, nlohmann::json params) {
    c.params = std::move(params);
    return c;
}

TEST(KmemWorkloads, BadParametersAreRefusedWithTheReason) {
    const Workload& single = find_workload("kmem-alloc-free");
    const Workload& pairs = find_workload("objcg-free");
    EXPECT_THAT(validate_error(single, with(config_for("none", 1, 10), {{"size", 0}})),
                HasSubstr("object size 0 is not modelled: 32, 512 or 4096 bytes"));
    EXPECT_THAT(validate_error(single, with(config_for("none", 1, 10), {{"cgroup", "v3"}})),
                HasSubstr("unknown cgroup version 'v3' (v1 or v2)"));
    EXPECT_THAT(validate_error(single, with(config_for("none", 1, 10), {{"allocs", 0}})),
                HasSubstr("allocs must be a whole number in 1..64"));
    EXPECT_THAT(validate_error(pairs, with(config_for("none", 2, 10), {{"drain", "100bytes"}})),
                HasSubstr("drain 100bytes is below one object (520 bytes"));
    EXPECT_THAT(validate_error(pairs, with(config_for("none", 2, 10), {{"drain", "0pages"}})),
                HasSubstr("drain '0pages' is not a threshold"));
    EXPECT_THAT(validate_error(pairs, with(config_for("none", 2, 10), {{"drain", "lots"}})),
                HasSubstr("drain 'lots' is not a threshold"));
    EXPECT_THAT(validate_error(pairs, with(config_for("none", 2, 10), {{"mode", "fork"}})),
                HasSubstr("unknown mode 'fork' (process or thread)"));
    EXPECT_THAT(validate_error(pairs, config_for("none", 1, 10)),
                HasSubstr("objcg-free needs at least 2 threads"));
    EXPECT_THAT(validate_error(pairs, config_for("none", 3, 10)),
                HasSubstr("objcg-free runs threads in pairs: 3 threads is odd"));
    EXPECT_THAT(validate_error(single, config_for("1-5", 1, 10)),
                HasSubstr("unknown variant '1-5' of kmem-alloc-free (variants: off, none, 1-2, "
                          "1-3, 1-4)"));
    EXPECT_EQ(ObjcgFreeWorkload::drain_pages("32pages", 520), 32u);
    EXPECT_EQ(ObjcgFreeWorkload::drain_pages("1page", 4104), 1u);
    EXPECT_EQ(ObjcgFreeWorkload::drain_pages("5000bytes", 520), 2u);
}

// Two real threads: whatever the interleaving, nothing stays charged beyond the remainders and
// every message sent is freed.
TEST(KmemWorkloads, TwoThreadsLeaveNothingChargedButRemainders) {
    for (const char* variant : {"none", "1-3", "1-4"}) {
        for (const char* name : {"kmem-alloc-free", "kmem-alloc-free-mt"}) {
            SCOPED_TRACE(fmt::format("{} {}", name, variant));
            const WorkloadResult r =
                find_workload(name).run(with(config_for(variant, 2, 2000), {{"cgroup", "v1"}}), {});
            EXPECT_EQ(r.ops, 4000u);
            EXPECT_LE(r.stats["final_root_memory_usage"].get<std::int64_t>(), 1);
            EXPECT_EQ(r.stats["final_root_kmem_usage"], r.stats["final_root_memory_usage"]);
            EXPECT_EQ(r.stats["alloc_failures"], 0u);
        }
        for (const char* mode : {"process", "thread"}) {
            SCOPED_TRACE(fmt::format("objcg-free {} {}", mode, variant));
            const WorkloadResult r =
                find_workload("objcg-free")
                    .run(with(config_for(variant, 2, 3000), {{"mode", mode}}), {});
            EXPECT_EQ(r.ops_per_thread[0], 3000u); // sent
            EXPECT_EQ(r.ops, 3000u);               // freed
            EXPECT_LE(r.stats["final_root_memory_usage"].get<std::int64_t>(), 4);
        }
    }
}

} // namespace
} // namespace hitmap::engine
