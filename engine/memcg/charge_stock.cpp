#include "engine/memcg/charge_stock.hpp"

#include <algorithm>

namespace hitmap::engine {

ChargeStock::ChargeStock(ObjectRegistry& registry, std::string name, const Layout& layout,
                         unsigned batch)
    : ProbedObject(registry, std::move(name), layout, 0)
    , batch_(batch) {}

bool ChargeStock::consume(MemCgroup* memcg, unsigned nr_pages) {
    const Site site = Site::consume_stock;
    if (nr_pages > batch_)
        return false;
    if (cached(site) != memcg)
        return false;
    const auto cached_pages = static_cast<unsigned>(load(stock::nr_pages, site));
    if (cached_pages < nr_pages)
        return false;
    store(stock::nr_pages, cached_pages - nr_pages, site);
    return true;
}

void ChargeStock::drain() {
    const Site site = Site::drain_stock;
    MemCgroup* old = cached(site);
    if (!old)
        return;
    if (const auto pages = load(stock::nr_pages, site); pages > 0) {
        old->memory().uncharge(static_cast<std::int64_t>(pages));
        store(stock::nr_pages, 0, site);
    }
    store(stock::cached, 0, site);
}

void ChargeStock::refill(MemCgroup* memcg, unsigned nr_pages) {
    const Site site = Site::refill_stock;
    if (cached(site) != memcg) {
        drain();
        store(stock::cached, reinterpret_cast<std::uintptr_t>(memcg), site);
    }
    const auto pages = static_cast<unsigned>(load(stock::nr_pages, site)) + nr_pages;
    store(stock::nr_pages, pages, site);
    if (pages > batch_)
        drain();
}

bool MemcgCharger::try_charge(MemCgroup& memcg, unsigned nr_pages) {
    if (memcg.is_root())
        return true;
    if (stock_.consume(&memcg, nr_pages)) {
        ++counters_.stock_hits;
        return true;
    }
    unsigned batch = std::max(stock_.batch(), nr_pages);
    for (;;) {
        PageCounter* fail = nullptr;
        if (memcg.memory().try_charge(batch, &fail))
            break;
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
        stock_.refill(&memcg, batch - nr_pages);
    check_high(memcg);
    return true;
}

void MemcgCharger::check_high(MemCgroup& memcg) {
    // After a batch charge, every level up to the root reads usage and high: the reads that
    // share usage's line with the limits in the v6.0 layout.
    for (MemCgroup* m = &memcg; m; m = m->parent()) {
        const std::int64_t usage = m->memory().read_usage(Site::memcg_high_check);
        if (usage > m->memory().read_high(Site::memcg_high_check)) {
            ++counters_.over_high;
            break;
        }
    }
}

} // namespace hitmap::engine
