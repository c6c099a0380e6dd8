#include "engine/memcg/charge_stock.hpp"

#include <algorithm>

namespace hitmap::engine {

ChargeStock::ChargeStock(ObjectRegistry& registry, std::string name, const Layout& layout,
                         unsigned batch)
    : ProbedObject(registry, std::move(name), layout, 0)
    , batch_(batch) {
    mark_owner_only();
}

template <bool Traced> bool ChargeStock::consume(MemCgroup* memcg, unsigned nr_pages) {
    const Site site = Site::consume_stock;
    if (nr_pages > batch_)
        return false;
    if (cached<Traced>(site) != memcg)
        return false;
    const auto cached_pages = static_cast<unsigned>(load<Traced>(stock::nr_pages, site));
    if (cached_pages < nr_pages)
        return false;
    store<Traced>(stock::nr_pages, cached_pages - nr_pages, site);
    return true;
}

template <bool Traced> void ChargeStock::drain() {
    const Site site = Site::drain_stock;
    MemCgroup* old = cached<Traced>(site);
    if (!old)
        return;
    if (const auto pages = load<Traced>(stock::nr_pages, site); pages > 0) {
        old->memory().uncharge<Traced>(static_cast<std::int64_t>(pages));
        if (memsw_)
            old->swap().uncharge<Traced>(static_cast<std::int64_t>(pages));
        store<Traced>(stock::nr_pages, 0, site);
    }
    store<Traced>(stock::cached, 0, site);
}

template <bool Traced> void ChargeStock::refill(MemCgroup* memcg, unsigned nr_pages) {
    const Site site = Site::refill_stock;
    if (cached<Traced>(site) != memcg) {
        drain<Traced>();
        store<Traced>(stock::cached, reinterpret_cast<std::uintptr_t>(memcg), site);
    }
    const auto pages = static_cast<unsigned>(load<Traced>(stock::nr_pages, site)) + nr_pages;
    store<Traced>(stock::nr_pages, pages, site);
    if (pages > batch_)
        drain<Traced>();
}

template <bool Traced> bool MemcgCharger::try_charge(MemCgroup& memcg, unsigned nr_pages) {
    if (memcg.is_root())
        return true;
    if (stock_.consume<Traced>(&memcg, nr_pages)) {
        ++counters_.stock_hits;
        return true;
    }
    unsigned batch = std::max(stock_.batch(), nr_pages);
    for (;;) {
        PageCounter* fail = nullptr;
        // v1 with swap accounting charges memsw first, and gives it back if memory refuses.
        if (!stock_.memsw() || memcg.swap().try_charge<Traced>(batch, &fail)) {
            if (memcg.memory().try_charge<Traced>(batch, &fail))
                break;
            if (stock_.memsw())
                memcg.swap().uncharge<Traced>(batch);
        }
        if (batch > nr_pages) { // retry without the surplus before giving up
            batch = nr_pages;
            continue;
        }
        // Reclaim, OOM and forced charges are outside the model: the charge fails.
        ++counters_.failures;
        return false;
    }
    ++counters_.counter_charges;
    if (batch > nr_pages)
        stock_.refill<Traced>(&memcg, batch - nr_pages);
    check_high<Traced>(memcg);
    return true;
}

template <bool Traced> void MemcgCharger::check_high(MemCgroup& memcg) {
    // After a batch charge try_charge_memcg() walks to the root reading, per level, both
    // counters' usage and high (v5.8+: swap.high counts too) and css.parent: in the v6.0
    // layout memory.high and css.parent share memory.usage's line.
    const Site site = Site::memcg_high_check;
    for (MemCgroup* m = &memcg; m; m = m->parent_probed<Traced>(site)) {
        const bool mem_high =
            m->memory().read_usage<Traced>(site) > m->memory().read_high<Traced>(site);
        const bool swap_high =
            m->swap().read_usage<Traced>(site) > m->swap().read_high<Traced>(site);
        if (mem_high || swap_high) {
            ++counters_.over_high;
            break;
        }
    }
}

template <bool Traced> bool MemcgCharger::charge_skmem(MemCgroup& memcg, unsigned nr_pages) {
    if (!try_charge<Traced>(memcg, nr_pages))
        return false;
    if (stats_)
        stats_->mod_memcg_state<Traced>(memcg, nr_pages);
    return true;
}

template <bool Traced> void MemcgCharger::uncharge_skmem(MemCgroup& memcg, unsigned nr_pages) {
    if (stats_)
        stats_->mod_memcg_state<Traced>(memcg, -static_cast<std::int64_t>(nr_pages));
    stock_.refill<Traced>(&memcg, nr_pages);
}

// The two copies of the charge path: probes compiled in, and compiled out.
template bool ChargeStock::consume<true>(MemCgroup*, unsigned);
template bool ChargeStock::consume<false>(MemCgroup*, unsigned);
template void ChargeStock::refill<true>(MemCgroup*, unsigned);
template void ChargeStock::refill<false>(MemCgroup*, unsigned);
template void ChargeStock::drain<true>();
template void ChargeStock::drain<false>();
template bool MemcgCharger::try_charge<true>(MemCgroup&, unsigned);
template bool MemcgCharger::try_charge<false>(MemCgroup&, unsigned);
template bool MemcgCharger::charge_skmem<true>(MemCgroup&, unsigned);
template bool MemcgCharger::charge_skmem<false>(MemCgroup&, unsigned);
template void MemcgCharger::uncharge_skmem<true>(MemCgroup&, unsigned);
template void MemcgCharger::uncharge_skmem<false>(MemCgroup&, unsigned);

} // namespace hitmap::engine
