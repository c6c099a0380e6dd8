#pragma once
// What the work between two scheduling points costs in a simulation: the native time of the
// engine's own code between consecutive probes of one CPU, by (previous site -> site), as
// measured untraced on this machine. A simulation is a function of its workload, machine and
// calibration, so a run stores the calibration it used and `--calibration FILE` reuses one.
//
// A calibration is keyed by what it measured: the workload, the variant and every parameter.
// Segments depend on the parameters (a drain that is rare at one object size is on every
// operation at another, and a segment seen a few times is priced from cold samples), so a
// calibration applies only to runs with the same key. The build and host it was measured with
// are recorded, not matched: committed calibrations exist to be used on other machines.
#include "engine/probe/site.hpp"
#include "engine/workloads/workload.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hitmap::sim {

inline constexpr std::size_t kSiteSlots = static_cast<std::size_t>(engine::Site::kCount) + 1;
// The "site" before a worker's first probe.
inline constexpr std::uint16_t kStartSite = static_cast<std::uint16_t>(engine::Site::kCount);
// A segment timed fewer times than this is "thin": its median may be a cold-cache sample, so it
// is priced at the default and a simulation reports how much of its work such segments priced.
inline constexpr std::uint32_t kThinSamples = 100;

struct Calibration {
    // [previous * kSiteSlots + site]: ns, or a negative value for a segment never measured.
    std::vector<double> segment_ns = std::vector<double>(kSiteSlots * kSiteSlots, -1.0);
    double default_ns = 0; // a segment the calibration did not see
    std::string workload;  // what it was measured on ("" = not measured: a fixed figure)
    std::string variant;
    // Every parameter of the runs it was measured for, defaults filled in (calibration_key).
    nlohmann::json params = nlohmann::json::object();
    std::string build; // the hitmap build that measured it ("" = not recorded)
    std::string host;  // the machine it was measured on ("" = not recorded)
    // [previous * kSiteSlots + site]: how many timings a segment's median came from; empty for
    // a calibration that did not record them (format 1, uniform).
    std::vector<std::uint32_t> samples;
    nlohmann::json facts = nlohmann::json::object(); // how it was made (ops, ns/op, hook cost)

    // A thin segment costs the default too: its median may be one cold first pass (a page
    // fault, a cold cache), which a run at the same key sees just as rarely but would then
    // price at that cold cost. The simulation reports the work priced so.
    double segment(std::uint16_t previous, std::uint16_t site) const {
        const std::size_t key = std::size_t{previous} * kSiteSlots + site;
        return segment_ns[key] < 0 || thin(key) ? default_ns : segment_ns[key];
    }
    // Measured, but from fewer than kThinSamples timings.
    bool thin(std::size_t key) const {
        return key < samples.size() && samples[key] < kThinSamples && segment_ns[key] >= 0;
    }
    bool operator==(const Calibration&) const = default;
};

// The parameters a calibration of `info` is keyed by: its defaults overlaid with `given`,
// without those that cannot change a calibration (ParamSpec::calibrated).
nlohmann::json calibration_key(const engine::WorkloadInfo& info, const nlohmann::json& given);

// How `c` differs from a run of `info` at `variant` and `params` (both keyed through
// calibration_key): "" when it applies, else e.g. "variant 1-3 (the run: 1-4)" or
// "cgroup=v2 (the run: v1), size=4096 (the run: 32)".
std::string key_difference(const Calibration& c, const engine::WorkloadInfo& info,
                           const std::string& variant, const nlohmann::json& params);

// `c` with every segment's native time multiplied by `factor`: the simulated machine's native
// speed anchored to a seed's baseline (reproduce). Recorded in its facts.
Calibration scaled(Calibration c, double factor);

// Every segment costs `ns` (tests, and a machine-independent first look).
Calibration uniform_calibration(double ns);

nlohmann::json calibration_to_json(const Calibration& c);
// Throws CalibrationError naming `source`.
Calibration calibration_from_json(const nlohmann::json& j, std::string_view source);

// A calibration file holds calibrations of one workload, one per (variant, parameters)
// (`run --simulate --save-calibration FILE` writes the ones a request measured), or a single
// calibration. Format 2 records the key; a format-1 file's parameters are those its facts name
// over the workload's defaults.
std::vector<Calibration> load_calibrations(const std::filesystem::path& path);
// Throws CalibrationError when the file cannot be written.
void save_calibrations(const std::filesystem::path& path, const std::vector<Calibration>& set);

} // namespace hitmap::sim
