#pragma once
// Software c2c: replays per-thread probe traces through a MESI model of private caches and
// reports, per line / field / CPU / field pair, how every access was served and what it cost.
// Exact counts (every access, no sampling), deterministic (same input -> equal result).
#include "collector/c2c/address_map.hpp"
#include "collector/c2c/cost_model.hpp"
#include "collector/c2c/replay_result.hpp"
#include "collector/c2c/trace_merger.hpp"
#include "engine/probe/object_registry.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hitmap::c2c {

struct ReplayConfig {
    std::uint32_t line_size = 64; // 64, or 128 to model the adjacent-line prefetcher
    ModelCpus model_cpus = ModelCpus::recorded;
    CostTable costs;
    LayoutOverrides layouts;                     // struct name -> layout to replay under
    std::optional<std::uint32_t> phase_override; // start offset mod 64 for every object
};

// Throws ReplayError (unknown object, field absent from an override layout, access outside
// its object, more than kMaxCpus model CPUs, bad line size or phase).
ReplayResult replay(std::span<const ThreadTrace> threads,
                    const std::vector<engine::ObjectInfo>& objects, const ReplayConfig& config);

// A field's counts summed over the lines it touches.
struct FieldTransfers {
    engine::ObjectId object = 0;
    engine::FieldId field = 0;
    std::string field_name;
    std::uint64_t hitm = 0;
    std::uint64_t transfers = 0;
    double stall_cycles = 0;
    bool operator==(const FieldTransfers&) const = default;
};

// Sorted by (object, field).
std::vector<FieldTransfers> field_transfers(const ReplayResult& result);

struct PhasePoint {
    std::uint32_t phase = 0;
    std::uint64_t transfers = 0; // all fields
    std::vector<FieldTransfers> fields;
    bool operator==(const PhasePoint&) const = default;
};

inline constexpr std::array<std::uint32_t, 8> kSweepPhases{0, 8, 16, 24, 32, 40, 48, 56};

// Replays once per phase (config.phase_override replaced), for layout-sensitivity reports.
std::vector<PhasePoint> phase_sweep(std::span<const ThreadTrace> threads,
                                    const std::vector<engine::ObjectInfo>& objects,
                                    const ReplayConfig& config,
                                    std::span<const std::uint32_t> phases = kSweepPhases);

} // namespace hitmap::c2c
