#include "collector/sim/calibration.hpp"
#include "collector/sim/errors.hpp"

#include <gtest/gtest.h>

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

} // namespace
} // namespace hitmap::sim
