#include "collector/perf/spe_pmu.hpp"

#include "collector/perf/errors.hpp"

#include <charconv>
#include <fmt/format.h>

namespace hitmap::perf {

namespace {

// perf's arm_spe_pmu__sample_period() (tools/perf/arch/arm64/util/arm-spe.c): the smallest
// interval the PMU accepts, caps/min_interval, else the largest PMSIDR_EL1.Interval value.
constexpr std::uint64_t fallback_interval = 4096;

std::optional<std::uint64_t> parse_midr(const std::filesystem::path& file) {
    const auto line = read_first_line(file);
    if (!line || !line->starts_with("0x"))
        return std::nullopt;
    std::uint64_t midr = 0;
    const char* first = line->data() + 2;
    const char* last = line->data() + line->size();
    const auto [end, ec] = std::from_chars(first, last, midr, 16);
    if (ec != std::errc() || end != last)
        return std::nullopt;
    return midr;
}

} // namespace

SpeEventSetup spe_event_setup(std::string_view pmu, const SystemRoots& roots) {
    SpeEventSetup setup;
    const auto type = pmu_type(pmu, roots);
    if (!type)
        throw PerfUnsupported(fmt::format("{}: no PMU type in sysfs", pmu));
    setup.type = *type;
    const std::filesystem::path dir = pmu_directory(pmu, roots);
    setup.config = PmuFormat::load(dir).encode("ts_enable=1,jitter=1,load_filter=1,store_filter=1");
    setup.sample_period =
        read_number<std::uint64_t>(dir / "caps/min_interval").value_or(fallback_interval);
    const std::vector<std::uint64_t> midrs = cpu_midrs(roots);
    setup.encoding = spe_data_source_encoding(midrs);
    return setup;
}

std::vector<std::uint64_t> cpu_midrs(const SystemRoots& roots) {
    std::vector<std::uint64_t> midrs;
    std::error_code ec;
    for (const auto& entry :
         std::filesystem::directory_iterator(roots.sys / "devices/system/cpu", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 4 || !name.starts_with("cpu") ||
            name.find_first_not_of("0123456789", 3) != std::string::npos)
            continue;
        if (const auto midr = parse_midr(entry.path() / "regs/identification/midr_el1"))
            midrs.push_back(*midr);
    }
    return midrs;
}

} // namespace hitmap::perf
