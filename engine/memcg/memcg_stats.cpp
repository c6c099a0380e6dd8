#include "engine/memcg/memcg_stats.hpp"

namespace hitmap::engine {

MemcgStatsGlobal::MemcgStatsGlobal(ObjectRegistry& registry)
    : ProbedObject(registry, "stats_flush_threshold",
                   *find_builtin_layout("memcg_stats_global", "v6.0"), 0) {}

MemcgStatsCpu::MemcgStatsCpu(ObjectRegistry& registry, std::string name, MemcgStatsGlobal& global,
                             Config config)
    : ProbedObject(registry, std::move(name), *find_builtin_layout("memcg_percpu_stats", "v6.0"), 0)
    , global_(global)
    , config_(config) {
    mark_owner_only();
}

template <bool Traced>
void MemcgStatsCpu::mod_memcg_state(const MemCgroup& memcg, std::int64_t val) {
    const Site site = Site::mod_memcg_state;
    // __this_cpu_add(memcg->vmstats_percpu->state[idx], val)
    memcg.load<Traced>(mcg::vmstats_percpu, site);
    add_local<Traced>(vmstat::state_sock, val, site);
    rstat_updated<Traced>(memcg, val);
}

template <bool Traced> void MemcgStatsCpu::rstat_updated(const MemCgroup& memcg, std::int64_t val) {
    const Site site = Site::memcg_rstat_updated;
    // cgroup_rstat_updated(memcg->css.cgroup, cpu): returns early once this CPU's node is
    // linked, which lasts until the next flush (the model has none).
    memcg.load<Traced>(mcg::css_cgroup, site);
    if (load<Traced>(vmstat::updated_next, site) == 0)
        store<Traced>(vmstat::updated_next, 1, site);
    const auto x = static_cast<std::uint64_t>(
        add_local<Traced>(vmstat::stats_updates, val < 0 ? -val : val, site));
    if (x <= config_.batch)
        return;
    if (!config_.read_threshold_first ||
        global_.load<Traced>(stats_global::stats_flush_threshold, site) <= config_.online_cpus)
        global_.add_return<Traced>(stats_global::stats_flush_threshold,
                                   static_cast<std::int64_t>(x / config_.batch), site);
    store<Traced>(vmstat::stats_updates, 0, site);
}

template void MemcgStatsCpu::mod_memcg_state<true>(const MemCgroup&, std::int64_t);
template void MemcgStatsCpu::mod_memcg_state<false>(const MemCgroup&, std::int64_t);

} // namespace hitmap::engine
