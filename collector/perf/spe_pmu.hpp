#pragma once
// The Arm SPE event MemorySampler opens, read from sysfs: the PMU's dynamic type, its config
// bits through the format files (pmu_format.hpp), the sampling interval it allows, and the
// data source encoding of the cores (spe_data_source.hpp). Reads files only, so fake sysfs
// trees test it.
#include "collector/perf/pmu_format.hpp"
#include "collector/perf/spe_data_source.hpp"
#include "collector/perf/sysfs.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace hitmap::perf {

struct SpeEventSetup {
    std::uint32_t type = 0;
    // ts_enable=1,jitter=1,load_filter=1,store_filter=1: loads and stores only, timestamps
    // closing each record as perf c2c records them, the interval randomised so that it cannot
    // alias with a loop. pa_enable stays off (the driver wants CAP_PERFMON for it), and so
    // does min_latency: it would filter stores as well as loads.
    RawEventConfig config;
    std::uint64_t sample_period = 0; // operations between samples
    SpeDataSourceEncoding encoding = SpeDataSourceEncoding::unknown;
};

// Throws PerfUnsupported when `pmu` has no type or lacks a format field, PerfInvalidConfig
// for a malformed format file.
SpeEventSetup spe_event_setup(std::string_view pmu, const SystemRoots& roots = {});

// MIDR_EL1 of each CPU that shows it (<sys>/devices/system/cpu/cpuN/regs/identification/
// midr_el1, "0x%016llx" per arch/arm64/kernel/cpuinfo.c; offline CPUs have none).
std::vector<std::uint64_t> cpu_midrs(const SystemRoots& roots = {});

} // namespace hitmap::perf
