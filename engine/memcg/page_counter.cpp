#include "engine/memcg/page_counter.hpp"

#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::engine {

PageCounter::PageCounter(ObjectRegistry& registry, std::string name, const Layout& layout,
                         std::uint32_t phase, PageCounter* parent, PageCounterSemantics semantics)
    : ProbedObject(registry, std::move(name), layout, phase)
    , parent_(parent)
    , semantics_(semantics) {
    if (layout.type != &page_counter_type())
        throw LayoutError(fmt::format("layout {} is of struct {}, not page_counter", layout.version,
                                      layout.type->name));
    std::vector<FieldId> needed{pc::usage,
                                pc::min,
                                pc::low,
                                pc::high,
                                pc::max,
                                pc::min_usage,
                                pc::children_min_usage,
                                pc::low_usage,
                                pc::children_low_usage,
                                pc::watermark,
                                pc::failcnt,
                                pc::parent};
    if (semantics.v6_15_fields)
        needed.insert(needed.end(),
                      {pc::local_watermark, pc::protection_support, pc::track_failcnt});
    for (FieldId f : needed)
        if (!layout.has(f))
            throw LayoutError(fmt::format("layout {} of page_counter lacks field '{}', which this "
                                          "variant's charge code uses",
                                          layout.version, layout.field_name(f)));
    poke(pc::parent, reinterpret_cast<std::uintptr_t>(parent));
    poke(pc::max, static_cast<std::uint64_t>(kPageCounterMax));
    poke(pc::high, static_cast<std::uint64_t>(kPageCounterMax));
    if (semantics.v6_15_fields) {
        poke(pc::protection_support, 1);
        poke(pc::track_failcnt, 1);
    }
}

void PageCounter::set_limits(std::int64_t min, std::int64_t low, std::int64_t high,
                             std::int64_t max) {
    store(pc::min, static_cast<std::uint64_t>(min), Site::page_counter_set_limit);
    store(pc::low, static_cast<std::uint64_t>(low), Site::page_counter_set_limit);
    store(pc::high, static_cast<std::uint64_t>(high), Site::page_counter_set_limit);
    store(pc::max, static_cast<std::uint64_t>(max), Site::page_counter_set_limit);
}

void PageCounter::set_protection_support(bool on) {
    if (semantics_.v6_15_fields)
        poke(pc::protection_support, on ? 1 : 0);
}

void PageCounter::set_track_failcnt(bool on) {
    if (semantics_.v6_15_fields)
        poke(pc::track_failcnt, on ? 1 : 0);
}

bool PageCounter::tracks_protection(Site site) const {
    // Before v6.12 every counter propagated; since, only those with protection_support.
    return !semantics_.v6_15_fields || load(pc::protection_support, site) != 0;
}

void PageCounter::propagate_one(pc::Field limit, pc::Field protected_usage,
                                pc::Field parent_children, std::int64_t usage) {
    const Site site = Site::propagate_protected_usage;
    const auto limit_value = static_cast<std::int64_t>(load(limit, site));
    if (limit_value == 0 && load(protected_usage, site) == 0)
        return;
    const std::int64_t protected_now = std::min(usage, limit_value);
    if (semantics_.propagation == ProtectionPropagation::on_change &&
        static_cast<std::int64_t>(load(protected_usage, site)) == protected_now)
        return;
    const auto old = static_cast<std::int64_t>(
        exchange(protected_usage, static_cast<std::uint64_t>(protected_now), site));
    if (const std::int64_t delta = protected_now - old; delta != 0)
        parent_->add_return(parent_children, delta, site);
}

void PageCounter::propagate_protected_usage(std::int64_t usage) {
    if (!parent_probed(Site::propagate_protected_usage))
        return;
    propagate_one(pc::min, pc::min_usage, pc::children_min_usage, usage);
    propagate_one(pc::low, pc::low_usage, pc::children_low_usage, usage);
}

void PageCounter::update_watermark(std::int64_t usage, Site site) {
    if (semantics_.v6_15_fields) {
        // Since v6.12 the global watermark is only looked at when the local one was exceeded.
        if (usage <= static_cast<std::int64_t>(load(pc::local_watermark, site)))
            return;
        store(pc::local_watermark, static_cast<std::uint64_t>(usage), site);
    }
    if (usage > static_cast<std::int64_t>(load(pc::watermark, site)))
        store(pc::watermark, static_cast<std::uint64_t>(usage), site);
}

bool PageCounter::try_charge(std::int64_t nr_pages, PageCounter** fail) {
    const Site site = Site::page_counter_try_charge;
    const bool protection = tracks_protection(site);
    for (PageCounter* c = this; c; c = c->parent_probed(site)) {
        const std::int64_t now = c->add_return(pc::usage, nr_pages, site);
        if (now > static_cast<std::int64_t>(c->load(pc::max, site))) {
            c->add_return(pc::usage, -nr_pages, site);
            if (!semantics_.v6_15_fields || c->load(pc::track_failcnt, site) != 0)
                c->store(pc::failcnt, c->load(pc::failcnt, site) + 1,
                         site); // racy ++, as data_race()
            *fail = c;
            for (PageCounter* u = this; u != c; u = u->parent_)
                u->cancel(nr_pages);
            return false;
        }
        if (protection)
            c->propagate_protected_usage(now);
        c->update_watermark(now, site);
    }
    return true;
}

void PageCounter::charge(std::int64_t nr_pages) {
    const Site site = Site::page_counter_charge;
    const bool protection = tracks_protection(site);
    for (PageCounter* c = this; c; c = c->parent_probed(site)) {
        const std::int64_t now = c->add_return(pc::usage, nr_pages, site);
        if (protection)
            c->propagate_protected_usage(now);
        c->update_watermark(now, site);
    }
}

void PageCounter::cancel(std::int64_t nr_pages) {
    const Site site = Site::page_counter_cancel;
    std::int64_t now = add_return(pc::usage, -nr_pages, site);
    if (now < 0) { // more uncharges than charges: the kernel warns once and clamps
        now = 0;
        store(pc::usage, 0, site);
    }
    if (tracks_protection(site))
        propagate_protected_usage(now);
}

void PageCounter::uncharge(std::int64_t nr_pages) {
    for (PageCounter* c = this; c; c = c->parent_probed(Site::page_counter_cancel))
        c->cancel(nr_pages);
}

} // namespace hitmap::engine
