// Machine detection, run status names and timestamps.
#include "collector/store/machine_info.hpp"
#include "collector/store/records.hpp"
#include "collector/store/timestamp.hpp"

#include <gtest/gtest.h>

namespace hitmap::store {
namespace {

TEST(Machine, DetectsThisMachine) {
    const MachineInfo m = detect_machine();
    EXPECT_FALSE(m.host.empty());
    EXPECT_FALSE(m.kernel.empty());
    ASSERT_TRUE(m.cpu_count && m.cacheline_size) << "this machine knows both";
    EXPECT_GE(*m.cpu_count, 1);
    EXPECT_GE(*m.cacheline_size, 16);
    EXPECT_EQ(*m.cacheline_size & (*m.cacheline_size - 1), 0) << "not a power of two";
}

TEST(Machine, CpuModelIsTheFirstModelName) {
    EXPECT_EQ(parse_cpu_model("processor\t: 0\nvendor_id\t: GenuineIntel\n"
                              "model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz  \n"
                              "processor\t: 1\nmodel name\t: other\n"),
              "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
}

TEST(Machine, CpuinfoWithoutModelNameGivesNone) {
    EXPECT_EQ(parse_cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"),
              std::nullopt);
    EXPECT_EQ(parse_cpu_model(""), std::nullopt);
}

TEST(RunStatusNames, RoundTrip) {
    for (auto s :
         {RunStatus::running, RunStatus::complete, RunStatus::failed, RunStatus::cancelled})
        EXPECT_EQ(parse_run_status(to_string(s)), s);
    EXPECT_EQ(to_string(RunStatus::complete), "complete");
    EXPECT_THROW(parse_run_status("done"), std::invalid_argument);
}

TEST(Timestamp, Iso8601UtcWithMilliseconds) {
    using namespace std::chrono;
    const sys_time<milliseconds> t = sys_days{2024y / 5 / 1} + 12h + 34min + 56s + 789ms;
    EXPECT_EQ(iso8601_utc(t), "2024-05-01T12:34:56.789Z");
    EXPECT_EQ(iso8601_utc(system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

} // namespace
} // namespace hitmap::store
