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
    kCount
};

std::string_view site_name(std::uint16_t site);

} // namespace hitmap::engine
