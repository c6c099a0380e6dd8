#include "collector/cli/cli_options.hpp"

#include "collector/btf/layout_source.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace hitmap::cli {

namespace {

double parse_number(std::string_view text, std::string_view what, const std::string& whole) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
        throw UsageError(fmt::format("malformed {} '{}'", what, whole));
    return value;
}

} // namespace

std::chrono::nanoseconds parse_duration(const std::string& text) {
    static const std::pair<std::string_view, double> units[] = {
        {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}};
    for (const auto& [suffix, scale] : units) {
        if (text.size() <= suffix.size() || !text.ends_with(suffix))
            continue;
        const std::string_view number(text.data(), text.size() - suffix.size());
        // "5ms" also ends with "s": only accept the suffix if what precedes it is a number.
        if (!number.empty() && !std::isdigit(static_cast<unsigned char>(number.back())) &&
            number.back() != '.')
            continue;
        const double ns = parse_number(number, "duration", text) * scale;
        if (ns < 1)
            throw UsageError(fmt::format("duration '{}' is zero", text));
        // Longer than a day is a typo, and would not fit the clock arithmetic far beyond it.
        if (ns > 24 * 3600e9)
            throw UsageError(fmt::format("duration '{}' is longer than 24h", text));
        return std::chrono::nanoseconds(static_cast<std::int64_t>(ns));
    }
    throw UsageError(fmt::format("malformed duration '{}' (use e.g. 500ms, 1s, 2m)", text));
}

std::uint64_t parse_count(const std::string& text, const char* what, std::uint64_t min,
                          std::uint64_t max) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
    if (!digits || ec != std::errc() || end != text.data() + text.size() || value < min ||
        value > max)
        throw UsageError(
            fmt::format("{} '{}' must be a whole number in {}..{}", what, text, min, max));
    return value;
}

std::vector<std::string> split_list(const std::string& text, const char* what) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            throw UsageError(fmt::format("empty {} in '{}'", what, text));
        items.push_back(std::move(item));
        if (comma == std::string::npos)
            return items;
        start = comma + 1;
    }
}

std::vector<unsigned> parse_thread_counts(const std::string& text) {
    std::vector<unsigned> counts;
    for (const std::string& item : split_list(text, "thread count")) {
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (ec != std::errc() || end != item.data() + item.size() || value == 0 || value > 4096)
            throw UsageError(
                fmt::format("thread count '{}' must be a whole number in 1..4096", item));
        counts.push_back(value);
    }
    return counts;
}

nlohmann::json parse_params(const std::vector<std::string>& assignments) {
    nlohmann::json params = nlohmann::json::object();
    for (const std::string& a : assignments) {
        const std::size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
            throw UsageError(fmt::format("parameter '{}' is not NAME=VALUE", a));
        const std::string name = a.substr(0, eq);
        const std::string value = a.substr(eq + 1);
        const nlohmann::json parsed =
            nlohmann::json::accept(value) ? nlohmann::json::parse(value) : nlohmann::json(value);
        if (params.contains(name) && params[name] != parsed)
            throw UsageError(fmt::format("--param {} given twice ({}, {})", name,
                                         params[name].dump(), parsed.dump()));
        params[name] = parsed;
    }
    return params;
}

namespace {

// "page_counter=v6.1" -> {"page_counter", "v6.1"}, the struct known to the engine.
std::pair<std::string, std::string> split_layout(const std::string& a) {
    const std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
        throw UsageError(fmt::format("layout '{}' is not STRUCT=NAME|FILE.json|btf[:FILE]", a));
    std::string struct_name = a.substr(0, eq);
    if (!engine::find_struct_type(struct_name))
        throw UsageError(fmt::format("struct {} in --layout {} is not one the engine models: "
                                     "place any struct on a capture with --object, compare its "
                                     "layouts with `layout diff`",
                                     struct_name, a));
    return {std::move(struct_name), a.substr(eq + 1)};
}

} // namespace

engine::Layout parse_layout(const std::string& assignment) {
    const auto [struct_name, value] = split_layout(assignment);
    return btf::resolve_layout(struct_name, value);
}

std::map<std::string, engine::Layout> parse_layouts(const std::vector<std::string>& assignments) {
    std::map<std::string, engine::Layout> layouts;
    std::map<std::string, std::string> given; // struct -> what the command line named
    for (const std::string& a : assignments) {
        const auto [struct_name, value] = split_layout(a);
        if (const auto it = given.find(struct_name); it != given.end() && it->second != value)
            throw UsageError(
                fmt::format("--layout {} given twice ({}, {})", struct_name, it->second, value));
        given.emplace(struct_name, value);
        layouts.insert_or_assign(struct_name, btf::resolve_layout(struct_name, value));
    }
    return layouts;
}

engine::TraceWindow parse_trace_window(const std::string& text) {
    if (text.empty())
        return {};
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
        throw UsageError(
            fmt::format("--trace-window '{}' is not ON/PERIOD (e.g. 200us/2ms)", text));
    const auto on = parse_duration(text.substr(0, slash));
    const auto period = parse_duration(text.substr(slash + 1));
    if (on >= period)
        throw UsageError(
            fmt::format("--trace-window '{}': the window must be shorter than the period", text));
    return {static_cast<std::uint64_t>(on.count()), static_cast<std::uint64_t>(period.count())};
}

collector::ProgressStyle parse_progress_style(const std::string& text) {
    if (text == "auto")
        return collector::ProgressStyle::automatic;
    if (text == "bar")
        return collector::ProgressStyle::bar;
    if (text == "json")
        return collector::ProgressStyle::json;
    if (text == "none")
        return collector::ProgressStyle::none;
    throw UsageError(fmt::format("unknown --progress '{}' (auto, bar, json, none)", text));
}

std::size_t parse_megabytes(const std::string& text) {
    double scale = 1 << 20;
    std::string_view number = text;
    if (text.ends_with('G') || text.ends_with('M')) {
        scale = text.ends_with('G') ? double(1 << 30) : double(1 << 20);
        number.remove_suffix(1);
    }
    const double bytes = parse_number(number, "size", text) * scale;
    if (bytes < 4096)
        throw UsageError(fmt::format("size '{}' is too small", text));
    if (bytes > double(std::uint64_t{1} << 40))
        throw UsageError(fmt::format("size '{}' is larger than 1 TiB", text));
    return static_cast<std::size_t>(bytes);
}

} // namespace hitmap::cli
