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
    if (request.c2c.source == C2cMode::off)
        return {std::nullopt, "ran with --c2c off"};
    if (request.simulate)
        return {store::C2cSource::simulated,
                fmt::format("--simulate {}: every access counted by the simulation's coherence "
                            "model, times in virtual ns",
                            request.simulate->machine)};
    if (!workload.probed)
        return {std::nullopt,
                fmt::format("{} has no probed objects: nothing to trace", workload.name)};
    const bool sampling = pmu.memory_sampling() != perf::MemorySampling::none;
    const std::string facility(perf::to_string(pmu.memory_sampling()));
    switch (request.c2c.source) {
    case C2cMode::software:
        return {store::C2cSource::software,
                "--c2c software: probe trace replayed through the coherence model"};
    case C2cMode::hardware:
        if (!sampling)
            throw perf::PerfUnsupported(fmt::format("--c2c hardware: {}", no_sampling_reason(pmu)));
        return {store::C2cSource::hardware,
                fmt::format("--c2c hardware: {} samples of the workers' loads and stores; "
                            "counts are samples",
                            facility)};
    case C2cMode::perf:
        return {store::C2cSource::perf,
                "--c2c perf: perf c2c record of this process while the workload ran, tables "
                "from perf c2c report; counts are perf's samples"};
    case C2cMode::automatic:
        if (sampling)
            return {store::C2cSource::hardware,
                    fmt::format("--c2c auto chose hardware: {} samples of the workers' loads and "
                                "stores; counts are samples",
                                facility)};
        return {store::C2cSource::software,
                fmt::format("--c2c auto chose software: {}", no_sampling_reason(pmu))};
    case C2cMode::off:
        break;
    }
    return {std::nullopt, "ran with --c2c off"};
}

} // namespace hitmap::collector
