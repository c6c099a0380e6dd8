#pragma once
// Cycles per access class, and the queueing term for transfers that pile up on one line.
#include "collector/c2c/coherence_model.hpp"
#include "engine/probe/trace_record.hpp"

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace hitmap::c2c {

// Defaults: one coherent set, ccbench on the Xeon E7-8867L (Westmere-EX, 2.13 GHz), same die,
// from David, Guerraoui, Trigonakis, SOSP 2013, Tables 2-3 (reference/detectors.md §2.3).
// Same die is the case a 2-socket-free CI box and most contention reports live in; use a
// calibrated table (load_cost_table) for cross-socket machines.
struct CostTable {
    double l1_hit = 5;          // L1 latency (Table 3)
    double load_hitm = 109;     // load, line Modified elsewhere
    double store_hitm = 115;    // store, line Modified elsewhere
    double atomic_hitm = 120;   // CAS/FAI/TAS/SWAP (our RMW and CAS), line Modified elsewhere
    double clean_forward = 44;  // load, line Shared: served by the inclusive LLC (LLC = 44)
    double store_shared = 116;  // store, line Shared
    double atomic_shared = 113; // CAS/FAI/TAS/SWAP, line Shared
    double cold = 355;          // load from memory (RAM latency)
    bool queueing = true;       // add the c*k/2 term for overlapping transfers of one line
    // Stored with every replay so an estimate says what produced it: "builtin:ccbench", or
    // "file:PATH" for a loaded table.
    std::string name = "builtin:ccbench";

    bool operator==(const CostTable&) const = default;
};

// What the report prints beside estimated cycles: where the table's figures come from.
std::string describe_cost_table(const std::string& name);

// The cost-table name of a hardware run: its cycles are the samples' measured latencies.
inline constexpr const char* kSampleWeights = "measured:sample-weights";

// JSON object with any of the keys above (numbers >= 0, "queueing" a bool); missing keys keep
// their defaults, unknown keys are an error. `source` names the input in error messages.
// Throws CostTableError.
CostTable parse_cost_table(std::string_view json_text, std::string_view source);
CostTable load_cost_table(const std::filesystem::path& path);

// Charges each non-hit access. Queueing (Boyd-Wickizer et al. 2012, reference/detectors.md
// §2.1): a request for a line that arrives while the line's previous transfer is still in
// flight (TSC gap < that transfer's cost; TSC ticks are taken as cycles) waits behind it. A
// chain of k such overlapping earlier transfers adds c*k/2 to this transfer's cost c, since on
// average half the queue is served first. Cold misses are not transfers and do not queue.
class CostModel {
public:
    CostModel(const CostTable& table, std::size_t lines);

    double l1_hit() const { return table_.l1_hit; }
    // Cycles of one non-hit access of `kind` to `line` at `tsc`, queueing included.
    double charge(std::uint32_t line, std::uint64_t tsc, AccessClass cls, engine::AccessKind kind);

private:
    struct LineQueue {
        std::uint64_t last_tsc = 0;
        double last_cost = 0; // 0 = no transfer yet
        std::uint32_t depth = 0;
    };

    double base_cost(AccessClass cls, engine::AccessKind kind) const;

    CostTable table_;
    std::vector<LineQueue> queues_;
};

} // namespace hitmap::c2c
