#pragma once
// Finite caches for a simulated machine: per core an L1d and an L2, per LLC group a shared
// last-level cache, each set-associative with LRU replacement and filled inclusively. The
// coherence model still decides who owns a line; this decides whether the CPU still has it
// close by, so a CPU that walks more data than its caches hold pays for the levels it falls
// through to (the capacity misses of seed 002's per-CPU counters).
//
// The L1 is indexed by the line's offset within its 4 KiB page, as a virtually indexed L1 is,
// so lines at the same page offset compete for one set (every CPU's copy of a per-CPU counter
// does). The L2 and the LLC are indexed by a hash of the whole line address: they are
// physically indexed, and the page frames behind a virtual range are scattered.
#include "collector/sim/machine_description.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace hitmap::sim {

enum class CacheLevel : std::uint8_t { l1, l2, llc, memory };

class CacheHierarchy {
public:
    // The machine must have caches.
    explicit CacheHierarchy(const MachineDescription& machine);
    ~CacheHierarchy();

    // Where `cpu` finds `line` (an address divided by the line size); afterwards the line is in
    // every level of that CPU.
    CacheLevel access(unsigned cpu, std::uint64_t line);
    // Another CPU's write took the line: it leaves this CPU's private levels.
    void invalidate(unsigned cpu, std::uint64_t line);

private:
    class SetAssociative;

    SetAssociative& l1(unsigned cpu);
    SetAssociative& l2(unsigned cpu);
    SetAssociative& llc(unsigned cpu);

    const MachineDescription& machine_;
    std::vector<std::unique_ptr<SetAssociative>> l1_, l2_; // per core, made on first use
    std::vector<std::unique_ptr<SetAssociative>> llc_;     // per LLC group
};

} // namespace hitmap::sim
