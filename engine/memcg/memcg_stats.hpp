#pragma once
// The statistics update every socket charge and uncharge makes: mod_memcg_state(memcg,
// MEMCG_SOCK, ±nr_pages) (mm/memcontrol.c, v6.0). It adds to this CPU's counter through
// memcg->vmstats_percpu and calls memcg_rstat_updated(), which marks the cgroup updated for
// this CPU's rstat tree (cgroup_rstat_updated() reads memcg->css.cgroup) and, every
// MEMCG_CHARGE_BATCH updates of this CPU, adds to the one global stats_flush_threshold that
// every CPU shares.
#include "engine/memcg/mem_cgroup.hpp"

namespace hitmap::engine {

// stats_flush_threshold, shared by every CPU.
class MemcgStatsGlobal : public ProbedObject {
public:
    explicit MemcgStatsGlobal(ObjectRegistry& registry);
    std::uint64_t flush_threshold() const { return peek(stats_global::stats_flush_threshold); }
};

// One CPU's statistics; only its owner touches them.
class MemcgStatsCpu : public ProbedObject {
public:
    struct Config {
        unsigned batch = 32;       // MEMCG_CHARGE_BATCH: updates per threshold add
        unsigned online_cpus = 1;  // num_online_cpus(), for the read-first threshold test
        bool read_threshold_first; // add only while the threshold is <= online CPUs
    };
    MemcgStatsCpu(ObjectRegistry& registry, std::string name, MemcgStatsGlobal& global,
                  Config config);

    template <bool Traced = true> void mod_memcg_state(const MemCgroup& memcg, std::int64_t val);

private:
    template <bool Traced> void rstat_updated(const MemCgroup& memcg, std::int64_t val);

    MemcgStatsGlobal& global_;
    Config config_;
};

} // namespace hitmap::engine
