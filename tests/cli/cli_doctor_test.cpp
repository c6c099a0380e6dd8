// `hitmap-collect doctor` end to end on this machine. Live facts differ between machines, so
// only the report's shape is checked: every documented capability once, with a yes/no and a
// detail, and exit status 0 whatever is missing.
#include "tests/cli/cli_test_support.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace hitmap::testing {
namespace {

const std::set<std::string> documented = {
    "hardware_pmu", "precise_memory_sampling", "tracepoints", "perf_event_paranoid", "perf_tool",
    "kernel_btf",   "invariant_tsc",           "cpus",        "cache_line_size",     "cgroup"};

TEST(CliDoctor, JsonHasEveryDocumentedCapability) {
    TempDir dir;
    const CliResult r = run_cli({"doctor", "--json"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["schema_version"], 1);
    std::set<std::string> keys;
    for (const auto& item : doc["capabilities"]) {
        EXPECT_TRUE(item["available"].is_boolean()) << item;
        EXPECT_FALSE(item["detail"].get<std::string>().empty()) << item;
        EXPECT_FALSE(item["label"].get<std::string>().empty()) << item;
        EXPECT_TRUE(keys.insert(item["key"].get<std::string>()).second) << item;
    }
    EXPECT_EQ(keys, documented);
    EXPECT_TRUE(doc["facts"]["pmu"]["lock_contention_tracepoints"].is_boolean());
}

TEST(CliDoctor, TextIsOneLinePerCapability) {
    TempDir dir;
    const CliResult r = run_cli({"doctor"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_lines(r.out), static_cast<int>(documented.size())) << r.out;
    EXPECT_NE(r.out.find("lock tracepoints"), std::string::npos) << r.out;
}

} // namespace
} // namespace hitmap::testing
