#pragma once
// Encodes a sysfs event description ("event=0xcd,umask=0x1,ldlat=3") into perf_event_attr
// config words through the PMU's format/ files ("config:0-7", "config1:0-15"), so that no bit
// position is hard-coded: they differ between Intel generations and AMD IBS revisions.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::perf {

struct RawEventConfig {
    std::uint64_t config = 0;
    std::uint64_t config1 = 0;
    std::uint64_t config2 = 0;
};

class PmuFormat {
public:
    // Reads <pmu_dir>/format/*; throws PerfUnsupported when there is no such directory and
    // PerfInvalidConfig when a file is not "configN:bits[,bits...]".
    static PmuFormat load(const std::filesystem::path& pmu_dir);

    // Terms apply left to right, so a later "ldlat=50" overrides an earlier "ldlat=3"; a term
    // without a value means 1. Throws PerfUnsupported for a term the PMU has no field for,
    // PerfInvalidConfig for a value that does not fit its field.
    RawEventConfig encode(std::string_view terms) const;

private:
    struct BitRange {
        unsigned first;
        unsigned last;
    };
    struct Field {
        unsigned word; // 0 = config, 1 = config1, 2 = config2
        std::vector<BitRange> ranges;
    };

    std::string pmu_;
    std::map<std::string, Field, std::less<>> fields_;
};

} // namespace hitmap::perf
