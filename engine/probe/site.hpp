#pragma once
// Call sites that touch shared engine state. A record stores the id; reports print the name
// the way perf prints a symbol, so kernel engineers recognise the path.
#include <cstdint>
#include <string_view>

namespace hitmap::engine {

enum class Site : std::uint16_t {
    page_counter_try_charge,
    page_counter_charge,
    page_counter_cancel,
    propagate_protected_usage,
    page_counter_set_limit,
    consume_stock,
    refill_stock,
    drain_stock,
    memcg_high_check,
    socket_pressure,
    mod_memcg_state,
    memcg_rstat_updated,
    res_counter_charge,
    res_counter_uncharge,
    css_get,
    css_put,
    precharge,
    // Kernel-memory accounting (v5.10-v5.14, seeds 000 and 004) and the SLUB paths around it.
    get_obj_cgroup_from_current,
    obj_cgroup_charge_pages,
    obj_cgroup_uncharge_pages,
    consume_obj_stock,
    refill_obj_stock,
    drain_obj_stock,
    mod_objcg_state,
    mod_memcg_lruvec_state,
    memcg_slab_post_alloc_hook,
    memcg_slab_free_hook,
    slab_alloc,
    slab_free,
    // hackbench's messages between a sender and a receiver.
    hackbench_send,
    hackbench_recv,
    // memory.stat and the rstat flush behind it (v6.5/v6.6, seed 002).
    memcg_page_state_local,
    memcg_events_local,
    memcg_page_state,
    memcg_events,
    memcg1_stat_format,
    mem_cgroup_flush_stats,
    cgroup_rstat_flush,
    mem_cgroup_css_rstat_flush,
    cgroup_rstat_updated,
    // Sites a workload plugin names (engine/plugin/plugin_api.hpp), handed out in order.
    plugin_0,
    plugin_1,
    plugin_2,
    plugin_3,
    plugin_4,
    plugin_5,
    plugin_6,
    plugin_7,
    kCount
};

std::string_view site_name(std::uint16_t site);

// The site of an access no modelled path makes (the host calibration's ping-pong line): under a
// uniform calibration every site costs the same, so which one it is does not matter; this one
// keeps the figures the probe gave before it had a name.
inline constexpr Site kUnmodelledSite = Site::page_counter_charge;

// The next free plugin site, named `name` from now on. Throws std::length_error when all eight
// are taken, std::invalid_argument when the name is empty or already a site's.
Site add_plugin_site(std::string_view name);

} // namespace hitmap::engine
