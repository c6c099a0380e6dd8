#pragma once
// Counts every classified access where it belongs and turns the counts into a ReplayResult.
//
// The hot loop increments one Cell per access: cells are kept per (access part, model CPU),
// the finest key any report needs, in one flat array. Lines, (line, offset, field) rows and
// (line, CPU) rows are sums of cells, formed once at the end.
#include "collector/c2c/address_map.hpp"
#include "collector/c2c/coherence_model.hpp"
#include "collector/c2c/replay_result.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace hitmap::c2c {

// The accessing (object, field) and the bytes it touches in one line. Its index is the tag
// the coherence model remembers writers by.
struct AccessPart {
    engine::ObjectId object = 0;
    engine::FieldId field = 0;
    LineSpan span;
};

class Attribution {
public:
    struct Cell {
        // [class * 2 + is_write]: one increment per access carries both class and kind.
        std::array<std::uint64_t, kAccessClassCount * 2> count{};
        std::uint64_t invalidations = 0;
        double stall_cycles = 0; // cycles of non-hit accesses; L1 hits are costed at the end
    };

    std::uint32_t add_part(const AccessPart& part);
    const AccessPart& part(std::uint32_t p) const { return parts_[p]; }
    // Registers the next dense CPU index; `id` is what reports call it.
    CpuIndex add_cpu(std::uint32_t id);

    Cell& cell(std::uint32_t part, CpuIndex cpu) { return cells_[part * stride_ + cpu]; }
    static void count(Cell& cell, AccessClass cls, bool write) {
        ++cell.count[static_cast<std::size_t>(cls) * 2 + write];
    }
    // A HITM or store_shared by `accessor` (a part index).
    void add_pair(std::uint32_t accessor, const Outcome& outcome);

    ReplayResult build(const AddressMap& map, double l1_hit_cycles, std::uint64_t records,
                       ModelCpus model_cpus) const;

private:
    std::vector<AccessPart> parts_;
    std::vector<std::uint32_t> cpu_ids_; // dense CpuIndex -> reported id
    std::size_t stride_ = 4;             // cells per part; doubles as CPUs appear
    std::vector<Cell> cells_;
    // (accessor part, writer part or kNoWriter, true sharing) -> counts
    std::map<std::tuple<std::uint32_t, std::uint32_t, bool>, PairCounts> pairs_;
};

} // namespace hitmap::c2c
