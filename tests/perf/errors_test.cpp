#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_capabilities.hpp"

#include <cerrno>
#include <gtest/gtest.h>

namespace hitmap::perf {
namespace {

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

TEST(DescribeErrno, PermissionMentionsTheParanoidSetting) {
    for (int error : {EACCES, EPERM}) {
        const std::string text = describe_errno(error);
        EXPECT_TRUE(contains(text, "perf_event_paranoid")) << text;
        if (const auto level = perf_event_paranoid()) {
            EXPECT_TRUE(contains(text, "= " + std::to_string(*level))) << text;
        }
    }
}

TEST(DescribeErrno, MissingEventMentionsVirtualMachines) {
    for (int error : {ENOENT, EOPNOTSUPP, ENODEV})
        EXPECT_TRUE(contains(describe_errno(error), "no such event on this PMU")) << error;
}

TEST(DescribeErrno, InvalidAttrAndOthersAreWords) {
    EXPECT_TRUE(contains(describe_errno(EINVAL), "invalid perf_event_attr"));
    EXPECT_TRUE(contains(describe_errno(EMFILE), "EMFILE"));
    for (int error : {EACCES, ENOENT, EINVAL, EMFILE, EBUSY})
        EXPECT_FALSE(contains(describe_errno(error), "\n")) << error;
}

TEST(ThrowErrno, EachKindHasItsType) {
    EXPECT_THROW(throw_errno("x", EACCES), PerfPermissionDenied);
    EXPECT_THROW(throw_errno("x", EPERM), PerfPermissionDenied);
    EXPECT_THROW(throw_errno("x", ENOENT), PerfUnsupported);
    EXPECT_THROW(throw_errno("x", ENODEV), PerfUnsupported);
    EXPECT_THROW(throw_errno("x", EINVAL), PerfInvalidConfig);
    EXPECT_THROW(throw_errno("x", EBUSY), PerfSystemError);
    try {
        throw_errno("cycles", ENOENT);
    } catch (const PerfError& e) {
        EXPECT_EQ(std::string(e.what()), "cycles: " + describe_errno(ENOENT));
    }
}

} // namespace
} // namespace hitmap::perf
