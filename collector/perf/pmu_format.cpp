#include "collector/perf/pmu_format.hpp"

#include "collector/perf/errors.hpp"
#include "collector/perf/sysfs.hpp"

#include <charconv>
#include <fmt/format.h>

namespace hitmap::perf {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    while (!text.empty()) {
        const auto end = text.find(separator);
        parts.push_back(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
    return parts;
}

std::optional<std::uint64_t> parse_number(std::string_view text) {
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
        base = 16;
    }
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::uint64_t& word(RawEventConfig& config, unsigned index) {
    return index == 0 ? config.config : index == 1 ? config.config1 : config.config2;
}

} // namespace

PmuFormat PmuFormat::load(const std::filesystem::path& pmu_dir) {
    PmuFormat format;
    format.pmu_ = pmu_dir.filename().string();
    std::error_code ec;
    std::filesystem::directory_iterator files(pmu_dir / "format", ec);
    if (ec)
        throw PerfUnsupported(fmt::format("{}: no format directory in sysfs", format.pmu_));
    for (const auto& file : files) {
        const std::string name = file.path().filename().string();
        const std::string line = read_first_line(file.path()).value_or("");
        const auto colon = line.find(':');
        const std::string_view target = std::string_view(line).substr(0, colon);
        Field field{};
        if (target == "config")
            field.word = 0;
        else if (target == "config1")
            field.word = 1;
        else if (target == "config2")
            field.word = 2;
        else
            throw PerfInvalidConfig(
                fmt::format("{}: format '{}' is '{}'", format.pmu_, name, line));
        for (std::string_view range : split(std::string_view(line).substr(colon + 1), ',')) {
            const auto dash = range.find('-');
            const auto first = parse_number(range.substr(0, dash));
            const auto last =
                dash == std::string_view::npos ? first : parse_number(range.substr(dash + 1));
            if (!first || !last || *first > *last || *last > 63)
                throw PerfInvalidConfig(
                    fmt::format("{}: format '{}' is '{}'", format.pmu_, name, line));
            field.ranges.push_back(
                BitRange{static_cast<unsigned>(*first), static_cast<unsigned>(*last)});
        }
        format.fields_.emplace(name, std::move(field));
    }
    return format;
}

RawEventConfig PmuFormat::encode(std::string_view terms) const {
    RawEventConfig config;
    for (std::string_view term : split(terms, ',')) {
        const auto equals = term.find('=');
        const std::string_view name = term.substr(0, equals);
        const auto value = equals == std::string_view::npos ? std::optional<std::uint64_t>(1)
                                                            : parse_number(term.substr(equals + 1));
        const auto field = fields_.find(name);
        if (field == fields_.end())
            throw PerfUnsupported(fmt::format("{}: no format field for '{}'", pmu_, term));
        if (!value)
            throw PerfInvalidConfig(fmt::format("{}: '{}' is not a number", pmu_, term));

        std::uint64_t& target = word(config, field->second.word);
        std::uint64_t remaining = *value;
        for (const BitRange& range : field->second.ranges) {
            const unsigned width = range.last - range.first + 1;
            const std::uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
            target = (target & ~(mask << range.first)) | ((remaining & mask) << range.first);
            remaining = width == 64 ? 0 : remaining >> width;
        }
        if (remaining != 0)
            throw PerfInvalidConfig(fmt::format("{}: '{}' does not fit its field", pmu_, term));
    }
    return config;
}

} // namespace hitmap::perf
