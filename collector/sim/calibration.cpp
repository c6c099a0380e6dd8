#include "collector/sim/calibration.hpp"

#include "collector/sim/errors.hpp"
#include "collector/support/text_file.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

namespace hitmap::sim {

namespace {

std::string site_label(std::size_t site) {
    return site == kStartSite ? std::string("start")
                              : std::string(engine::site_name(static_cast<std::uint16_t>(site)));
}

} // namespace

nlohmann::json calibration_key(const engine::WorkloadInfo& info, const nlohmann::json& given) {
    nlohmann::json key = nlohmann::json::object();
    for (const engine::ParamSpec& p : info.params)
        key[p.name] = p.default_value;
    for (const auto& [name, value] : given.items())
        key[name] = value;
    for (const engine::ParamSpec& p : info.params)
        if (!p.calibrated)
            key.erase(p.name);
    return key;
}

std::string key_difference(const Calibration& c, const engine::WorkloadInfo& info,
                           const std::string& variant, const nlohmann::json& params) {
    if (c.workload != info.name)
        return fmt::format("workload {} (the run: {})", c.workload, info.name);
    if (c.variant != variant)
        return fmt::format("variant {} (the run: {})", c.variant, variant);
    const nlohmann::json measured = calibration_key(info, c.params);
    const nlohmann::json wanted = calibration_key(info, params);
    std::string out;
    for (const auto& [name, value] : wanted.items()) {
        const auto it = measured.find(name);
        if (it != measured.end() && *it == value)
            continue;
        const auto text = [](const nlohmann::json& v) {
            return v.is_string() ? v.get<std::string>() : v.dump();
        };
        out += fmt::format("{}{}={} (the run: {})", out.empty() ? "" : ", ", name,
                           it == measured.end() ? "unset" : text(*it), text(value));
    }
    return out;
}

Calibration scaled(Calibration c, double factor) {
    for (double& ns : c.segment_ns)
        if (ns > 0)
            ns *= factor;
    c.default_ns *= factor;
    c.facts["native_scale"] = factor;
    return c;
}

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
    nlohmann::json j = {{"format", "hitmap-calibration-2"},
                        {"workload", c.workload},
                        {"variant", c.variant},
                        {"params", c.params},
                        {"build", c.build},
                        {"host", c.host},
                        {"default_ns", c.default_ns},
                        {"segments_ns", segments},
                        {"facts", c.facts}};
    if (!c.samples.empty()) {
        nlohmann::json samples = nlohmann::json::object();
        for (std::size_t prev = 0; prev < kSiteSlots; ++prev)
            for (std::size_t site = 0; site < kSiteSlots; ++site)
                if (const std::size_t k = prev * kSiteSlots + site; c.segment_ns[k] >= 0)
                    samples[site_label(prev) + " > " + site_label(site)] = c.samples[k];
        j["samples"] = samples;
    }
    return j;
}

Calibration calibration_from_json(const nlohmann::json& j, std::string_view source) {
    auto fail = [&](std::string_view what) -> void {
        throw CalibrationError(fmt::format("{}: {}", source, what));
    };
    const std::string format = j.is_object() ? j.value("format", "") : "";
    if (format != "hitmap-calibration-1" && format != "hitmap-calibration-2")
        fail("not a hitmap calibration (format hitmap-calibration-2)");
    Calibration c;
    try {
        c.workload = j.at("workload").get<std::string>();
        c.variant = j.at("variant").get<std::string>();
        c.default_ns = j.at("default_ns").get<double>();
        c.facts = j.value("facts", nlohmann::json::object());
        // Format 1 kept the parameters given to the run that measured it among its facts.
        c.params = format == "hitmap-calibration-1"
                       ? c.facts.value("params", nlohmann::json::object())
                       : j.at("params");
        if (!c.params.is_object())
            fail("params must be an object");
        c.build = j.value("build", "");
        c.host = j.value("host", "");
        std::vector<std::string> labels;
        for (std::size_t s = 0; s < kSiteSlots; ++s)
            labels.push_back(site_label(s));
        const auto slot = [&](const std::string& key) {
            const auto sep = key.find(" > ");
            const auto prev = std::find(labels.begin(), labels.end(), key.substr(0, sep));
            const auto site = sep == std::string::npos
                                  ? labels.end()
                                  : std::find(labels.begin(), labels.end(), key.substr(sep + 3));
            if (prev == labels.end() || site == labels.end())
                fail(fmt::format("segment '{}' does not name two sites", key));
            return static_cast<std::size_t>(prev - labels.begin()) * kSiteSlots +
                   static_cast<std::size_t>(site - labels.begin());
        };
        for (const auto& [key, value] : j.at("segments_ns").items()) {
            const std::size_t k = slot(key);
            if (!value.is_number() || value.get<double>() < 0)
                fail(fmt::format("segment '{}' must be a number >= 0", key));
            c.segment_ns[k] = value.get<double>();
        }
        if (j.contains("samples")) {
            c.samples.assign(kSiteSlots * kSiteSlots, 0);
            for (const auto& [key, value] : j.at("samples").items()) {
                if (!value.is_number_unsigned())
                    fail(fmt::format("samples of '{}' must be a count", key));
                c.samples[slot(key)] = value.get<std::uint32_t>();
            }
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
    // Written beside the file and renamed over it: a failed write (a full disk) keeps the
    // calibrations already stored.
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    const auto fail = [&] {
        throw CalibrationError(fmt::format("{}: cannot write the calibration file", path.string()));
    };
    std::ofstream out(tmp);
    if (!out.is_open())
        fail();
    out << j.dump(2) << '\n';
    out.close();
    std::error_code ec;
    if (out)
        std::filesystem::rename(tmp, path, ec);
    if (!out || ec) {
        std::filesystem::remove(tmp, ec);
        fail();
    }
}

} // namespace hitmap::sim
