#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_format.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::perf {
namespace {

// A fake sysfs PMU directory with the format files of an Intel core PMU.
class PmuFormatTest : public ::testing::Test {
protected:
    void SetUp() override {
        // One directory per process: ctest runs the tests of this fixture in parallel.
        dir_ = std::filesystem::path(::testing::TempDir()) /
               ("hitmap_fake_pmu." + std::to_string(getpid())) / "cpu";
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_ / "format");
        write("event", "config:0-7");
        write("umask", "config:8-15");
        write("ldlat", "config1:0-15");
        write("edge", "config:18");
        write("split", "config:32-35,60-63");
    }
    void TearDown() override { std::filesystem::remove_all(dir_.parent_path()); }

    void write(const std::string& name, const std::string& line) {
        std::ofstream(dir_ / "format" / name) << line << "\n";
    }

    std::filesystem::path dir_;
};

TEST_F(PmuFormatTest, EncodesTheSysfsMemLoadsDescription) {
    const RawEventConfig config = PmuFormat::load(dir_).encode("event=0xcd,umask=0x1,ldlat=3");
    EXPECT_EQ(config.config, 0x1cdu);
    EXPECT_EQ(config.config1, 3u);
    EXPECT_EQ(config.config2, 0u);
}

TEST_F(PmuFormatTest, LaterTermsOverrideEarlierOnes) {
    const RawEventConfig config =
        PmuFormat::load(dir_).encode("event=0xcd,umask=0x1,ldlat=3,ldlat=30");
    EXPECT_EQ(config.config1, 30u);
}

TEST_F(PmuFormatTest, BareTermMeansOneAndSplitFieldsSpreadLowBitsFirst) {
    const RawEventConfig config = PmuFormat::load(dir_).encode("edge,split=0xab");
    EXPECT_EQ(config.config, (1ULL << 18) | (0xbULL << 32) | (0xaULL << 60));
}

TEST_F(PmuFormatTest, RejectsUnknownTermsAndOversizedValues) {
    const PmuFormat format = PmuFormat::load(dir_);
    EXPECT_THROW(format.encode("no_such_field=1"), PerfUnsupported);
    EXPECT_THROW(format.encode("event=0x1cd"), PerfInvalidConfig);
    EXPECT_THROW(format.encode("event=zz"), PerfInvalidConfig);
}

TEST_F(PmuFormatTest, MalformedFormatFileIsInvalid) {
    write("bad", "config7:0-3");
    EXPECT_THROW(PmuFormat::load(dir_), PerfInvalidConfig);
}

TEST(PmuFormat, MissingPmuIsUnsupported) {
    EXPECT_THROW(PmuFormat::load("/nonexistent/pmu"), PerfUnsupported);
}

} // namespace
} // namespace hitmap::perf
