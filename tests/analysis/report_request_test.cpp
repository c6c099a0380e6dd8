#include "collector/analysis/report_data.hpp"

#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

TEST(ReportRequest, RunIdsInTheirOrder) {
    EXPECT_EQ(parse_run_ids("3,18"), (std::vector<std::int64_t>{3, 18}));
    EXPECT_EQ(parse_run_ids("7"), (std::vector<std::int64_t>{7}));
    EXPECT_EQ(parse_run_ids("9223372036854775807"),
              (std::vector<std::int64_t>{9223372036854775807}));
}

TEST(ReportRequest, RefusesWhatIsNotARunIdNamingTheItem) {
    for (const char* bad : {"", "3,", ",3", "3,,4", "0", "-5", "+5", " 5", "5 ", "0x10", "1e3", "x",
                            "9223372036854775808"}) {
        try {
            parse_run_ids(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const ReportRequestError& e) {
            EXPECT_NE(std::string(e.what()).find("is not a run id"), std::string::npos) << bad;
        }
    }
}

} // namespace
} // namespace hitmap::analysis
