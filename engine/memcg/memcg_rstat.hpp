#pragma once
// The memcg statistics of v6.5 and v6.6 for a root and its children (seed 002): the per-CPU
// counters every update adds to, rstat's per-CPU updated lists, the flush that folds the
// per-CPU deltas into struct memcg_vmstats, and the cgroup v1 memory.stat that reads them.
//
// Update: __mod_memcg_state() adds to this CPU's counter and calls memcg_rstat_updated():
// cgroup_rstat_updated() puts the cgroup on this CPU's updated list (returns at once when it is
// already on it), and past MEMCG_CHARGE_BATCH updates the CPU adds to stats_flush_threshold.
// Flush (mem_cgroup_flush_stats): only when the threshold exceeds the online CPUs, skipped
// when another flush is ongoing; then every possible CPU's updated list is popped, children
// before the root, and mem_cgroup_css_rstat_flush() runs for each: pending from the children
// plus this CPU's delta go into state[] and the parent's pending; in v6.6 this CPU's delta also
// goes into state_local[].
// Read (memcg1_stat_format): the local items, v6.5 summing every possible CPU's counter and
// v6.6 reading state_local[]; the limit walk to the root; the total_ items from state[].
//
// The model keeps the 19 items memory.stat prints (engine/layout/memcg_stat_layouts.hpp) at
// their real offsets; the flush walks those 19 of the kernel's 69 and leaves out the lruvec
// (per-node) statistics, which v1's memory.stat does not print. The periodic flush worker and
// the global cgroup_rstat_lock (one flusher at a time already holds stats_flush_ongoing) are
// not modelled.
#include "engine/layout/memcg_stat_layouts.hpp"
#include "engine/memcg/mem_cgroup.hpp"
#include "engine/memcg/percpu_area.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hitmap::engine {

enum class StatsVersion { v6_5, v6_6 };

struct MemcgRstatConfig {
    StatsVersion version = StatsVersion::v6_6;
    unsigned memcgs = 1000;       // children of the root
    unsigned possible_cpus = 256; // for_each_possible_cpu()
    unsigned online_cpus = 256;   // num_online_cpus(): the flush threshold
    Layout mem_cgroup;            // struct mem_cgroup, for the limit walk
};

struct MemcgRstatCounts {
    std::uint64_t flushes = 0;         // flushes this CPU ran
    std::uint64_t flushes_skipped = 0; // another flush was ongoing
    std::uint64_t flushed_pairs = 0;   // (memcg, CPU) pairs folded
    std::uint64_t percpu_reads = 0;    // per-CPU counters memory.stat read (v6.5's local sums)
};

class MemcgRstat {
public:
    MemcgRstat(ObjectRegistry& registry, const MemcgRstatConfig& config);
    ~MemcgRstat();

    unsigned memcgs() const { return config_.memcgs; }
    // Memcg 0 is the root; 1..memcgs its children.
    const MemCgroup& memcg(unsigned m) const { return *nodes_[m].memcg; }

    // __mod_memcg_state(memcg, MEMCG1 state item, val) / __count_memcg_events(memcg, event
    // item, count) on CPU `cpu`; `item` indexes kMemcg1States then kMemcg1Events.
    template <bool Traced = true> void update(unsigned cpu, unsigned m, unsigned item, long val);
    // mem_cgroup_flush_stats() by CPU `cpu`.
    template <bool Traced = true> void flush_stats(unsigned cpu, MemcgRstatCounts& counts);
    // memory_stat_show() of cgroup v1 for memcg `m` on CPU `cpu`: the flush, then every line
    // into `out` (cleared first).
    template <bool Traced = true>
    void memory_stat(unsigned cpu, unsigned m, std::string& out, MemcgRstatCounts& counts);

    // The item's local and hierarchical values as memory.stat prints them, untraced.
    std::int64_t local_value(unsigned m, unsigned item) const;
    std::int64_t total_value(unsigned m, unsigned item) const;

private:
    struct Node {
        std::unique_ptr<MemCgroup> memcg;
        std::unique_ptr<ProbedObject> vmstats; // struct memcg_vmstats
        std::uint32_t vmstats_percpu = 0;      // offsets in the percpu area
        std::uint32_t rstat_cpu = 0;
    };

    template <bool Traced> std::int64_t read_local(unsigned m, unsigned item) const;
    template <bool Traced> void rstat_updated(unsigned cpu, unsigned m);
    template <bool Traced> void rstat_flush(unsigned cpu, MemcgRstatCounts& counts);
    template <bool Traced> void css_rstat_flush(unsigned m, unsigned cpu);

    MemcgRstatConfig config_;
    RstatCpuLayout rstat_cpu_; // of config_.version
    PercpuArea percpu_;
    std::vector<Node> nodes_;
    ProbedObject globals_;            // memcg_flush_globals
    std::uint32_t stats_updates_ = 0; // static percpu: unsigned int stats_updates
    std::uint32_t cpu_lock_ = 0;      // static percpu: cgroup_rstat_cpu_lock
};

} // namespace hitmap::engine
