#include "collector/sim/calibration.hpp"

#include "collector/sim/errors.hpp"
#include "collector/support/text_file.hpp"

#include <fmt/format.h>
#include <fstream>

namespace hitmap::sim {

namespace {

std::string site_label(std::size_t site) {
    return site == kStartSite ? std::string("start")
                              : std::string(engine::site_name(static_cast<std::uint16_t>(site)));
}

} // namespace

Calibration uniform_calibration(double ns) {
    Calibration c;
    c.default_ns = ns;
    c.facts = {{"uniform_ns", ns}};
    return c;
}

nlohmann::json calibration_to_json(const Calibration& c) {
    nlohmann::json segments = nlohmann::json::object();
    for (std::size_t prev = 0; prev < kSiteSlots; ++prev)
        for (std::size_t site = 0; site < kSiteSlots; ++site)
            if (const double ns = c.segment_ns[prev * kSiteSlots + site]; ns >= 0)
                segments[site_label(prev) + " > " + site_label(site)] = ns;
    return {{"format", "hitmap-calibration-1"}, {"workload", c.workload},  {"variant", c.variant},
            {"default_ns", c.default_ns},       {"segments_ns", segments}, {"facts", c.facts}};
}

Calibration calibration_from_json(const nlohmann::json& j, std::string_view source) {
    auto fail = [&](std::string_view what) -> void {
        throw CalibrationError(fmt::format("{}: {}", source, what));
    };
    if (!j.is_object() || j.value("format", "") != "hitmap-calibration-1")
        fail("not a hitmap calibration (format hitmap-calibration-1)");
    Calibration c;
    try {
        c.workload = j.at("workload").get<std::string>();
        c.variant = j.at("variant").get<std::string>();
        c.default_ns = j.at("default_ns").get<double>();
        c.facts = j.value("facts", nlohmann::json::object());
        std::vector<std::string> labels;
        for (std::size_t s = 0; s < kSiteSlots; ++s)
            labels.push_back(site_label(s));
        for (const auto& [key, value] : j.at("segments_ns").items()) {
            const auto sep = key.find(" > ");
            const auto prev = std::find(labels.begin(), labels.end(), key.substr(0, sep));
            const auto site = sep == std::string::npos
                                  ? labels.end()
                                  : std::find(labels.begin(), labels.end(), key.substr(sep + 3));
            if (prev == labels.end() || site == labels.end())
                fail(fmt::format("segment '{}' does not name two sites", key));
            if (!value.is_number() || value.get<double>() < 0)
                fail(fmt::format("segment '{}' must be a number >= 0", key));
            c.segment_ns[static_cast<std::size_t>(prev - labels.begin()) * kSiteSlots +
                         static_cast<std::size_t>(site - labels.begin())] = value.get<double>();
        }
    } catch (const nlohmann::json::exception& e) {
        fail(e.what());
    }
    if (c.default_ns < 0)
        fail("default_ns must be >= 0");
    return c;
}

std::vector<Calibration> load_calibrations(const std::filesystem::path& path) {
    const auto text = support::read_text_file(path);
    if (!text)
        throw CalibrationError(fmt::format("{}: cannot read the calibration file", path.string()));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error& e) {
        throw CalibrationError(fmt::format("{}: not JSON ({})", path.string(), e.what()));
    }
    std::vector<Calibration> set;
    if (!j.is_array())
        j = nlohmann::json::array({j});
    for (const auto& one : j)
        set.push_back(calibration_from_json(one, path.string()));
    if (set.empty())
        throw CalibrationError(fmt::format("{}: holds no calibration", path.string()));
    for (const Calibration& c : set)
        if (c.workload != set.front().workload)
            throw CalibrationError(fmt::format("{}: calibrations of two workloads ({}, {})",
                                               path.string(), set.front().workload, c.workload));
    return set;
}

void save_calibrations(const std::filesystem::path& path, const std::vector<Calibration>& set) {
    nlohmann::json j = nlohmann::json::array();
    for (const Calibration& c : set)
        j.push_back(calibration_to_json(c));
    std::ofstream out(path);
    out << j.dump(2) << '\n';
    out.close();
    if (!out)
        throw CalibrationError(fmt::format("{}: cannot write the calibration file", path.string()));
}

} // namespace hitmap::sim
