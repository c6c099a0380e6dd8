#include "collector/run/c2c_choice.hpp"

#include "collector/perf/errors.hpp"

#include <fmt/format.h>

namespace hitmap::collector {

namespace {

// Why the machine cannot sample memory precisely: no PMU at all (a VM without a vPMU says so
// through the refused cycles counter), or a PMU without a memory-sampling facility.
std::string no_sampling_reason(const perf::PmuCapabilities& pmu) {
    if (!pmu.hardware_counters)
        return fmt::format("no hardware PMU ({})",
                           pmu.hardware_counters_reason.value_or("cycles counter refused"));
    return "the PMU has no precise memory sampling (no mem-loads event, ibs_op or arm_spe PMU)";
}

} // namespace

C2cChoice choose_c2c(const RunRequest& request, const engine::WorkloadInfo& workload,
                     const perf::PmuCapabilities& pmu) {
    if (request.c2c.source == C2cSource::off)
        return {C2cPath::off, "ran with --c2c off"};
    if (request.simulate)
        return {C2cPath::simulated,
                fmt::format("--simulate {}: every access counted by the simulation's coherence "
                            "model, times in virtual ns",
                            request.simulate->machine)};
    if (!workload.probed)
        return {C2cPath::off,
                fmt::format("{} has no probed objects: nothing to trace", workload.name)};
    const bool sampling = pmu.memory_sampling() != perf::MemorySampling::none;
    const std::string facility(perf::to_string(pmu.memory_sampling()));
    switch (request.c2c.source) {
    case C2cSource::software:
        return {C2cPath::software, "--c2c software: probe trace replayed through the coherence "
                                   "model"};
    case C2cSource::hardware:
        if (!sampling)
            throw perf::PerfUnsupported(fmt::format("--c2c hardware: {}", no_sampling_reason(pmu)));
        return {C2cPath::hardware,
                fmt::format("--c2c hardware: {} samples of the workers' loads and stores; "
                            "counts are samples",
                            facility)};
    case C2cSource::perf:
        return {C2cPath::perf, "--c2c perf: perf c2c record of this process while the workload "
                               "ran, tables from perf c2c report; counts are perf's samples"};
    case C2cSource::automatic:
        if (sampling)
            return {C2cPath::hardware,
                    fmt::format("--c2c auto chose hardware: {} samples of the workers' loads and "
                                "stores; counts are samples",
                                facility)};
        return {C2cPath::software,
                fmt::format("--c2c auto chose software: {}", no_sampling_reason(pmu))};
    case C2cSource::off:
        break;
    }
    return {C2cPath::off, "ran with --c2c off"};
}

std::string c2c_source_name(C2cPath path) {
    switch (path) {
    case C2cPath::software:
        return "software";
    case C2cPath::hardware:
        return "hardware";
    case C2cPath::perf:
        return "perf";
    case C2cPath::simulated:
        return "simulated";
    case C2cPath::off:
        break;
    }
    return {};
}

} // namespace hitmap::collector
