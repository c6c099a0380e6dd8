#include "engine/memcg/res_memcg.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

ResMemcgHierarchy::ResMemcgHierarchy(ObjectRegistry& registry, LockClass& lock_class,
                                     const ResMemcgConfig& c) {
    css_ = std::make_unique<ProbedObject>(
        registry, "memcg/css", *find_builtin_layout("cgroup_subsys_state", "v2.6.31"), 0);
    const unsigned levels = c.use_hierarchy ? std::max(c.depth, 1u) : 1;
    for (unsigned level = 0; level < levels; ++level) {
        const bool leaf = level + 1 == levels;
        const std::string name = leaf ? "memcg" : level == 0 ? "root" : fmt::format("l{}", level);
        const std::uint64_t limit = leaf ? c.limit_bytes : kResCounterMax;
        res_.push_back(std::make_unique<ResCounter>(registry, name + "/res", lock_class,
                                                    res_.empty() ? nullptr : res_.back().get(),
                                                    limit, c.lock));
        if (c.swap_account)
            memsw_.push_back(std::make_unique<ResCounter>(
                registry, name + "/memsw", lock_class,
                memsw_.empty() ? nullptr : memsw_.back().get(), kResCounterMax, c.lock));
    }
}

ResPageCharger::ResPageCharger(ResMemcgHierarchy& memcg, unsigned precharge_pages,
                               bool batch_uncharges, ResChargeCounters& counters)
    : memcg_(memcg)
    , precharge_pages_(precharge_pages > 1 ? precharge_pages : 1)
    , batch_uncharges_(batch_uncharges)
    , counters_(counters) {}

// res, then memsw; a refusal of memsw gives res its charge back.
bool ResPageCharger::charge_counters(std::uint64_t bytes) {
    if (!memcg_.res().charge(bytes)) {
        ++counters_.charge_refusals;
        return false;
    }
    if (ResCounter* memsw = memcg_.memsw(); memsw && !memsw->charge(bytes)) {
        memcg_.res().uncharge(bytes);
        ++counters_.charge_refusals;
        return false;
    }
    ++counters_.counter_charges;
    return true;
}

void ResPageCharger::uncharge_counters(std::uint64_t bytes) {
    memcg_.res().uncharge(bytes);
    if (ResCounter* memsw = memcg_.memsw())
        memsw->uncharge(bytes);
    ++counters_.counter_uncharges;
}

bool ResPageCharger::charge_page() {
    // __mem_cgroup_try_charge(): the page holds a css reference from here on.
    memcg_.css().add_return(css31::refcnt, 1, Site::css_get);
    if (precharged_ > 0) { // use_precharge()
        --precharged_;
        ++counters_.precharge_hits;
        return true;
    }
    if (precharge_pages_ > 1 && charge_counters(precharge_pages_ * kPageSize)) {
        precharged_ = precharge_pages_ - 1; // do_precharge(CHARGE_SIZE - PAGE_SIZE)
        return true;
    }
    // Without a precharge, or near the limit: the page alone (the model's fallback; the mail
    // reclaims and retries CHARGE_SIZE).
    if (charge_counters(kPageSize))
        return true;
    memcg_.css().add_return(css31::refcnt, -1, Site::css_put);
    ++counters_.page_failures;
    return false;
}

void ResPageCharger::uncharge_page() {
    if (batch_uncharges_ && in_batch_) { // __do_uncharge(): gathered until uncharge_end()
        batch_bytes_ += kPageSize;
        ++counters_.batched_pages;
    } else {
        uncharge_counters(kPageSize);
    }
    memcg_.css().add_return(css31::refcnt, -1, Site::css_put);
}

void ResPageCharger::uncharge_start() {
    in_batch_ = true;
}

void ResPageCharger::uncharge_end() {
    in_batch_ = false;
    if (batch_bytes_ > 0)
        uncharge_counters(batch_bytes_);
    batch_bytes_ = 0;
}

void ResPageCharger::drain() {
    uncharge_end();
    if (precharged_ > 0)
        uncharge_counters(std::uint64_t{precharged_} * kPageSize);
    precharged_ = 0;
}

} // namespace hitmap::engine
