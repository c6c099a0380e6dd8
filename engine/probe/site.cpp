#include "engine/probe/site.hpp"

#include <array>

namespace hitmap::engine {

std::string_view site_name(std::uint16_t site) {
    static constexpr std::array<std::string_view, static_cast<std::size_t>(Site::kCount)> names{
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
        "hackbench.recv"};
    return site < names.size() ? names[site] : std::string_view("?");
}

} // namespace hitmap::engine
