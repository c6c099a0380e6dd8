#include "engine/probe/site.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace hitmap::engine {

namespace {

constexpr auto kFirstPluginSite = static_cast<std::size_t>(Site::plugin_0);
constexpr std::size_t kPluginSites = static_cast<std::size_t>(Site::kCount) - kFirstPluginSite;

// Plugins load before any run starts, so the names are written once and then only read. A slot
// no plugin took keeps a name of its own, so calibration files can name every site uniquely.
struct PluginSites {
    std::array<std::string, kPluginSites> names;
    std::array<bool, kPluginSites> taken{};
    PluginSites() {
        for (std::size_t i = 0; i < kPluginSites; ++i)
            names[i] = fmt::format("(plugin site {})", i);
    }
};

PluginSites& plugin_sites() {
    static PluginSites sites;
    return sites;
}

std::string_view builtin_site_name(std::size_t site) {
    static constexpr std::array<std::string_view, kFirstPluginSite> names{
        "page_counter_try_charge",
        "page_counter_charge",
        "page_counter_cancel",
        "propagate_protected_usage",
        "page_counter_set_limit",
        "consume_stock",
        "refill_stock",
        "drain_stock",
        "try_charge_memcg.high_check",
        "mem_cgroup_under_socket_pressure",
        "mod_memcg_state",
        "memcg_rstat_updated",
        "res_counter_charge",
        "res_counter_uncharge",
        "css_get",
        "css_put",
        "mem_cgroup_try_charge.precharge",
        "get_obj_cgroup_from_current",
        "obj_cgroup_charge_pages",
        "obj_cgroup_uncharge_pages",
        "consume_obj_stock",
        "refill_obj_stock",
        "drain_obj_stock",
        "mod_objcg_state",
        "mod_memcg_lruvec_state",
        "memcg_slab_post_alloc_hook",
        "memcg_slab_free_hook",
        "___slab_alloc",
        "__slab_free",
        "hackbench.send",
        "hackbench.recv",
        "memcg_page_state_local",
        "memcg_events_local",
        "memcg_page_state",
        "memcg_events",
        "memcg1_stat_format",
        "mem_cgroup_flush_stats",
        "cgroup_rstat_flush",
        "mem_cgroup_css_rstat_flush",
        "cgroup_rstat_updated"};
    return names[site];
}

} // namespace

std::string_view site_name(std::uint16_t site) {
    if (site < kFirstPluginSite)
        return builtin_site_name(site);
    if (site >= static_cast<std::size_t>(Site::kCount))
        return "?";
    return plugin_sites().names[site - kFirstPluginSite];
}

Site add_plugin_site(std::string_view name) {
    if (name.empty())
        throw std::invalid_argument("a plugin site needs a name");
    for (std::size_t s = 0; s < static_cast<std::size_t>(Site::kCount); ++s)
        if (site_name(static_cast<std::uint16_t>(s)) == name)
            throw std::invalid_argument(fmt::format("site '{}' exists already", name));
    PluginSites& sites = plugin_sites();
    const auto free = std::find(sites.taken.begin(), sites.taken.end(), false);
    if (free == sites.taken.end())
        throw std::length_error(
            fmt::format("no plugin site left for '{}' (there are {})", name, kPluginSites));
    const auto slot = static_cast<std::size_t>(free - sites.taken.begin());
    *free = true;
    sites.names[slot] = name;
    return static_cast<Site>(kFirstPluginSite + slot);
}

} // namespace hitmap::engine
