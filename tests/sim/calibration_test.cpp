#include "collector/sim/calibration.hpp"
#include "collector/sim/errors.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::sim {
namespace {

constexpr auto kCharge = static_cast<std::uint16_t>(engine::Site::page_counter_charge);
constexpr auto kHigh = static_cast<std::uint16_t>(engine::Site::memcg_high_check);

TEST(Calibration, SegmentsRoundTripThroughJsonByTheirSiteNames) {
    Calibration c = uniform_calibration(7.5);
    c.workload = "page-counter-charge";
    c.variant = "v6.0";
    c.segment_ns[kCharge * kSiteSlots + kHigh] = 3.25;
    c.segment_ns[kStartSite * kSiteSlots + kCharge] = 0;
    const nlohmann::json j = calibration_to_json(c);
    EXPECT_EQ(j["segments_ns"],
              (nlohmann::json{{"page_counter_charge > try_charge_memcg.high_check", 3.25},
                              {"start > page_counter_charge", 0.0}}));
    const Calibration back = calibration_from_json(j, "c.json");
    EXPECT_EQ(back, c);
    EXPECT_DOUBLE_EQ(back.segment(kCharge, kHigh), 3.25);
    EXPECT_DOUBLE_EQ(back.segment(kHigh, kCharge), 7.5); // not measured: the default
}

TEST(Calibration, AFileThatIsNotOneIsRefusedWithItsName) {
    nlohmann::json j = calibration_to_json(uniform_calibration(1));
    j["segments_ns"]["page_counter_charge > nowhere"] = 1;
    try {
        calibration_from_json(j, "c.json");
        FAIL() << "accepted";
    } catch (const CalibrationError& e) {
        EXPECT_STREQ(e.what(), "c.json: segment 'page_counter_charge > nowhere' does not name two "
                               "sites");
    }
    EXPECT_THROW(calibration_from_json(nlohmann::json::object(), "c.json"), CalibrationError);
    EXPECT_THROW(load_calibrations("/nonexistent/c.json"), CalibrationError);
}

engine::WorkloadInfo kmem_info() {
    engine::WorkloadInfo info;
    info.name = "kmem";
    info.params = {{"size", 4096u, ""}, {"cgroup", "v2", ""}, {"allocs", 4u, ""}};
    return info;
}

// Issue 33: the key is the workload, the variant and every parameter, defaults filled in on
// both sides, so a parameter given at its default matches one left out.
TEST(Calibration, AppliesOnlyAtItsKeyAndNamesEveryParameterThatDiffers) {
    const engine::WorkloadInfo info = kmem_info();
    Calibration c = uniform_calibration(1);
    c.workload = "kmem";
    c.variant = "none";
    c.params = calibration_key(info, {{"cgroup", "v2"}});
    EXPECT_EQ(c.params, (nlohmann::json{{"size", 4096u}, {"cgroup", "v2"}, {"allocs", 4u}}));
    EXPECT_EQ(key_difference(c, info, "none", {{"size", 4096}}), "");
    EXPECT_EQ(key_difference(c, info, "none", {{"cgroup", "v1"}, {"size", 32}}),
              "cgroup=v2 (the run: v1), size=4096 (the run: 32)");
    EXPECT_EQ(key_difference(c, info, "1-3", {}), "variant none (the run: 1-3)");
}

// Format 2 keeps the key, the build, the host and each segment's sample count; a format-1 file's
// parameters are the ones its facts name, which reads as the defaults plus those.
TEST(Calibration, TheKeyAndSampleCountsRoundTripAndFormatOneReadsItsFactsParams) {
    Calibration c = uniform_calibration(2);
    c.workload = "kmem";
    c.variant = "none";
    c.params = {{"size", 32}};
    c.build = "hitmap 0.1.0";
    c.host = "a CPU, 2 CPUs, Linux 6.1";
    c.segment_ns[kCharge * kSiteSlots + kHigh] = 3.25;
    c.samples.assign(kSiteSlots * kSiteSlots, 0);
    c.samples[kCharge * kSiteSlots + kHigh] = 12;
    const nlohmann::json j = calibration_to_json(c);
    EXPECT_EQ(j["format"], "hitmap-calibration-2");
    EXPECT_EQ(j["samples"],
              (nlohmann::json{{"page_counter_charge > try_charge_memcg.high_check", 12}}));
    EXPECT_EQ(calibration_from_json(j, "c.json"), c);

    nlohmann::json old = j;
    old["format"] = "hitmap-calibration-1";
    old.erase("params");
    old["facts"]["params"] = {{"cgroup", "v1"}};
    EXPECT_EQ(calibration_from_json(old, "c.json").params, (nlohmann::json{{"cgroup", "v1"}}));
}

// A segment timed fewer than kThinSamples times is thin and priced at the default; one without
// recorded counts is not known to be, and an unmeasured one is priced at the default, not thin.
TEST(Calibration, ASegmentOfFewSamplesIsThin) {
    Calibration c = uniform_calibration(1);
    const std::size_t few = kCharge * kSiteSlots + kHigh, many = kHigh * kSiteSlots + kCharge;
    c.segment_ns[few] = c.segment_ns[many] = 5;
    EXPECT_FALSE(c.thin(few)); // counts not recorded
    c.samples.assign(kSiteSlots * kSiteSlots, 0);
    c.samples[few] = kThinSamples - 1;
    c.samples[many] = kThinSamples;
    EXPECT_TRUE(c.thin(few));
    EXPECT_FALSE(c.thin(many));
    EXPECT_DOUBLE_EQ(c.segment(kCharge, kHigh), 1); // the default, not its few samples' 5
    EXPECT_DOUBLE_EQ(c.segment(kHigh, kCharge), 5);
    EXPECT_FALSE(c.thin(kStartSite * kSiteSlots + kCharge)); // not measured
}

TEST(Calibration, ScalingMultipliesEverySegmentAndSaysSo) {
    Calibration c = uniform_calibration(2);
    c.segment_ns[kCharge * kSiteSlots + kHigh] = 3;
    const Calibration s = scaled(c, 4);
    EXPECT_DOUBLE_EQ(s.segment(kCharge, kHigh), 12);
    EXPECT_DOUBLE_EQ(s.segment(kHigh, kCharge), 8);
    EXPECT_EQ(s.facts["native_scale"], 4);
}

// A calibration file that cannot be replaced keeps what it held: the new set is written beside
// it and renamed over it only once written.
TEST(Calibration, AFailedSaveKeepsTheFileItWouldReplace) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("hitmap-cal-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = dir / "c.json";
    save_calibrations(path, {uniform_calibration(1)});
    std::filesystem::create_directory(dir / "c.json.tmp"); // the temporary cannot be written
    EXPECT_THROW(save_calibrations(path, {uniform_calibration(2)}), CalibrationError);
    EXPECT_EQ(load_calibrations(path).front().default_ns, 1);
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace hitmap::sim
