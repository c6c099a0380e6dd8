#pragma once
// The output of a replay: plain values, sorted by stable keys, so two replays of the same
// input compare equal and reports/stores can consume them without knowing the model.
//
// Counting rules
//   * Every record is one access; an access whose bytes straddle a line boundary (only under
//     an odd phase or layout) is classified once per line it touches, so class totals can
//     exceed `records`.
//   * hitm      = load_hitm + store_hitm
//   * transfers = hitm + clean_forward + store_shared: every access that had to fetch the line
//     or its ownership from another cache (one coherence request each). `invalidations`
//     counts the copies a store_shared destroyed (one per other sharer); it is reported
//     alongside, not added, because each destroyed copy shows up again as a transfer when its
//     holder next touches the line.
//   * stall_cycles = sum over accesses of the CostTable cycles of their class, plus queueing.
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::c2c {

// Which private cache an access goes through: the CPU recorded with it, or one cache per
// thread (as if every thread had its own core; ignores SMT and migrations).
enum class ModelCpus { recorded, thread };
// "recorded", "thread": as --model-cpus takes it and the store keeps it.
std::string_view to_string(ModelCpus cpus);
std::optional<ModelCpus> model_cpus_named(std::string_view name);

struct ClassCounts {
    std::uint64_t l1_hit = 0;
    std::uint64_t load_hitm = 0;
    std::uint64_t store_hitm = 0;
    std::uint64_t clean_forward = 0;
    std::uint64_t store_shared = 0;
    std::uint64_t cold = 0;
    std::uint64_t invalidations = 0; // sharers invalidated by store_shared accesses
    std::uint64_t loads = 0;
    std::uint64_t stores = 0; // stores, RMWs and CASes
    double stall_cycles = 0;

    std::uint64_t hitm() const { return load_hitm + store_hitm; }
    std::uint64_t transfers() const { return hitm() + clean_forward + store_shared; }
    std::uint64_t accesses() const { return loads + stores; }

    ClassCounts& operator+=(const ClassCounts& o) {
        l1_hit += o.l1_hit;
        load_hitm += o.load_hitm;
        store_hitm += o.store_hitm;
        clean_forward += o.clean_forward;
        store_shared += o.store_shared;
        cold += o.cold;
        invalidations += o.invalidations;
        loads += o.loads;
        stores += o.stores;
        stall_cycles += o.stall_cycles;
        return *this;
    }
    bool operator==(const ClassCounts&) const = default;
};

struct LineKey {
    engine::ObjectId object = 0;
    std::uint32_t index = 0;   // line within the object, counted from its first byte's line
    std::uint64_t address = 0; // virtual line address under the replay's address map

    auto operator<=>(const LineKey&) const = default;
};

struct LineStats {
    LineKey line;
    ClassCounts counts;
    bool operator==(const LineStats&) const = default;
};

// perf c2c's Pareto rows, with field names: one per (line, offset, field, size).
struct FieldStats {
    LineKey line;
    std::uint32_t offset = 0; // byte offset within the line
    std::uint32_t size = 0;   // bytes of the access within this line
    engine::FieldId field = 0;
    std::string field_name;
    ClassCounts counts;
    bool operator==(const FieldStats&) const = default;
};

struct CpuStats {
    LineKey line;
    std::uint32_t cpu = 0; // recorded CPU, or thread id under ModelCpus::thread
    ClassCounts counts;
    bool operator==(const CpuStats&) const = default;
};

struct PairCounts {
    std::uint64_t load_hitm = 0;
    std::uint64_t store_hitm = 0;
    std::uint64_t store_shared = 0;
    std::uint64_t invalidations = 0;

    std::uint64_t hitm() const { return load_hitm + store_hitm; }
    PairCounts& operator+=(const PairCounts& o) {
        load_hitm += o.load_hitm;
        store_hitm += o.store_hitm;
        store_shared += o.store_shared;
        invalidations += o.invalidations;
        return *this;
    }
    bool operator==(const PairCounts&) const = default;
};

// Which field hurts which: the accessing field vs the field whose write the line carried,
// for every HITM and store_shared. Both fields are in the line's object (one object per
// line). true_sharing = the accessor's bytes overlap bytes written in the owner's epoch.
struct PairStats {
    LineKey line;
    engine::FieldId accessor = 0;
    std::string accessor_name;
    std::optional<engine::FieldId> writer; // nullopt: the line was never written before
    std::string writer_name;               // empty when writer is nullopt
    bool true_sharing = false;
    PairCounts counts;
    bool operator==(const PairStats&) const = default;
};

struct ReplayResult {
    std::uint32_t line_size = 64;
    ModelCpus model_cpus = ModelCpus::recorded;
    std::uint64_t records = 0;
    ClassCounts totals;
    std::vector<LineStats> lines;   // sorted by line
    std::vector<FieldStats> fields; // sorted by (line, offset, field, size)
    std::vector<CpuStats> cpus;     // sorted by (line, cpu)
    std::vector<PairStats> pairs;   // sorted by (line, accessor, writer, true_sharing)

    bool operator==(const ReplayResult&) const = default;
};

} // namespace hitmap::c2c
