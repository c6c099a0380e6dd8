#pragma once
// What the work between two scheduling points costs in a simulation: the native time of the
// engine's own code between consecutive probes of one CPU, by (previous site -> site), as
// measured untraced on this machine. A simulation is a function of its workload, machine and
// calibration, so a run stores the calibration it used and `--calibration FILE` reuses one.
#include "engine/probe/site.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hitmap::sim {

inline constexpr std::size_t kSiteSlots = static_cast<std::size_t>(engine::Site::kCount) + 1;
// The "site" before a worker's first probe.
inline constexpr std::uint16_t kStartSite = static_cast<std::uint16_t>(engine::Site::kCount);

struct Calibration {
    // [previous * kSiteSlots + site]: ns, or a negative value for a segment never measured.
    std::vector<double> segment_ns = std::vector<double>(kSiteSlots * kSiteSlots, -1.0);
    double default_ns = 0; // a segment the calibration did not see
    std::string workload;  // what it was measured on ("" = not measured: a fixed figure)
    std::string variant;
    nlohmann::json facts = nlohmann::json::object(); // how it was made (ops, ns/op, hook cost)

    double segment(std::uint16_t previous, std::uint16_t site) const {
        const double ns = segment_ns[std::size_t{previous} * kSiteSlots + site];
        return ns < 0 ? default_ns : ns;
    }
    bool operator==(const Calibration&) const = default;
};

// Every segment costs `ns` (tests, and a machine-independent first look).
Calibration uniform_calibration(double ns);

nlohmann::json calibration_to_json(const Calibration& c);
// Throws CalibrationError naming `source`.
Calibration calibration_from_json(const nlohmann::json& j, std::string_view source);

// A calibration file holds one calibration per variant of one workload (`run --simulate
// --save-calibration FILE` writes the ones a request measured), or a single calibration.
std::vector<Calibration> load_calibrations(const std::filesystem::path& path);
// Throws CalibrationError when the file cannot be written.
void save_calibrations(const std::filesystem::path& path, const std::vector<Calibration>& set);

} // namespace hitmap::sim
