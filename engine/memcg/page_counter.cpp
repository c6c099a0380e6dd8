#include "engine/memcg/page_counter.hpp"

#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::engine {

PageCounter::PageCounter(ObjectRegistry& registry, std::string name, const Layout& layout,
                         std::uint32_t phase, PageCounter* parent, PageCounterSemantics semantics)
    : object_(nullptr)
    , first_field_(0)
    , parent_(parent)
    , semantics_(semantics) {
    if (layout.type != &page_counter_type())
        throw LayoutError(fmt::format("layout {} is of struct {}, not page_counter", layout.version,
                                      layout.type->name));
    own_ = std::make_unique<ProbedObject>(registry, std::move(name), layout, phase);
    object_ = own_.get();
    check_fields("page_counter");
    initialise();
}

PageCounter::PageCounter(ProbedObject& owner, FieldId first_field, PageCounter* parent,
                         PageCounterSemantics semantics)
    : object_(&owner)
    , first_field_(first_field)
    , parent_(parent)
    , semantics_(semantics) {
    check_fields(owner.layout().type->name);
    initialise();
}

void PageCounter::check_fields(std::string_view what) const {
    std::vector<pc::Field> needed{pc::usage,
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
    if (semantics_.v6_15_fields)
        needed.insert(needed.end(),
                      {pc::local_watermark, pc::protection_support, pc::track_failcnt});
    const Layout& layout = object_->layout();
    for (const pc::Field f : needed)
        if (!layout.has(field(f)))
            throw LayoutError(fmt::format("layout {} of {} lacks field '{}', which this "
                                          "variant's charge code uses",
                                          layout.version, what, layout.field_name(field(f))));
}

void PageCounter::initialise() {
    poke(pc::parent, reinterpret_cast<std::uintptr_t>(parent_));
    poke(pc::max, static_cast<std::uint64_t>(kPageCounterMax));
    poke(pc::high, static_cast<std::uint64_t>(kPageCounterMax));
    if (semantics_.v6_15_fields) {
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

template <bool Traced> bool PageCounter::tracks_protection(Site site) const {
    // Before v6.12 every counter propagated; since, only those with protection_support.
    return !semantics_.v6_15_fields || load<Traced>(pc::protection_support, site) != 0;
}

template <bool Traced>
void PageCounter::propagate_one(pc::Field limit, pc::Field protected_usage,
                                pc::Field parent_children, std::int64_t usage) {
    const Site site = Site::propagate_protected_usage;
    const auto limit_value = static_cast<std::int64_t>(load<Traced>(limit, site));
    if (limit_value == 0 && load<Traced>(protected_usage, site) == 0)
        return;
    const std::int64_t protected_now = std::min(usage, limit_value);
    if (semantics_.propagation == ProtectionPropagation::on_change &&
        static_cast<std::int64_t>(load<Traced>(protected_usage, site)) == protected_now)
        return;
    const auto old = static_cast<std::int64_t>(
        exchange<Traced>(protected_usage, static_cast<std::uint64_t>(protected_now), site));
    if (const std::int64_t delta = protected_now - old; delta != 0)
        parent_->add_return<Traced>(parent_children, delta, site);
}

template <bool Traced> void PageCounter::propagate_protected_usage(std::int64_t usage) {
    if (!parent_probed<Traced>(Site::propagate_protected_usage))
        return;
    propagate_one<Traced>(pc::min, pc::min_usage, pc::children_min_usage, usage);
    propagate_one<Traced>(pc::low, pc::low_usage, pc::children_low_usage, usage);
}

template <bool Traced> void PageCounter::update_watermark(std::int64_t usage, Site site) {
    if (semantics_.v6_15_fields) {
        // Since v6.12 the global watermark is only looked at when the local one was exceeded.
        if (usage <= static_cast<std::int64_t>(load<Traced>(pc::local_watermark, site)))
            return;
        store<Traced>(pc::local_watermark, static_cast<std::uint64_t>(usage), site);
    }
    if (usage > static_cast<std::int64_t>(load<Traced>(pc::watermark, site)))
        store<Traced>(pc::watermark, static_cast<std::uint64_t>(usage), site);
}

template <bool Traced> bool PageCounter::try_charge(std::int64_t nr_pages, PageCounter** fail) {
    const Site site = Site::page_counter_try_charge;
    const bool protection = tracks_protection<Traced>(site);
    for (PageCounter* c = this; c; c = c->parent_probed<Traced>(site)) {
        const std::int64_t now = c->add_return<Traced>(pc::usage, nr_pages, site);
        if (now > static_cast<std::int64_t>(c->load<Traced>(pc::max, site))) {
            c->add_return<Traced>(pc::usage, -nr_pages, site);
            if (!semantics_.v6_15_fields || c->load<Traced>(pc::track_failcnt, site) != 0)
                c->store<Traced>(pc::failcnt, c->load<Traced>(pc::failcnt, site) + 1,
                                 site); // racy ++, as data_race()
            *fail = c;
            for (PageCounter* u = this; u != c; u = u->parent_)
                u->cancel<Traced>(nr_pages);
            return false;
        }
        if (protection)
            c->propagate_protected_usage<Traced>(now);
        c->update_watermark<Traced>(now, site);
    }
    return true;
}

template <bool Traced> void PageCounter::charge(std::int64_t nr_pages) {
    const Site site = Site::page_counter_charge;
    const bool protection = tracks_protection<Traced>(site);
    for (PageCounter* c = this; c; c = c->parent_probed<Traced>(site)) {
        const std::int64_t now = c->add_return<Traced>(pc::usage, nr_pages, site);
        if (protection)
            c->propagate_protected_usage<Traced>(now);
        c->update_watermark<Traced>(now, site);
    }
}

template <bool Traced> void PageCounter::cancel(std::int64_t nr_pages) {
    const Site site = Site::page_counter_cancel;
    std::int64_t now = add_return<Traced>(pc::usage, -nr_pages, site);
    if (now < 0) { // more uncharges than charges: the kernel warns once and clamps
        now = 0;
        store<Traced>(pc::usage, 0, site);
    }
    if (tracks_protection<Traced>(site))
        propagate_protected_usage<Traced>(now);
}

template <bool Traced> void PageCounter::uncharge(std::int64_t nr_pages) {
    for (PageCounter* c = this; c; c = c->parent_probed<Traced>(Site::page_counter_cancel))
        c->cancel<Traced>(nr_pages);
}

// The two copies of the charge path: probes compiled in, and compiled out.
template bool PageCounter::try_charge<true>(std::int64_t, PageCounter**);
template bool PageCounter::try_charge<false>(std::int64_t, PageCounter**);
template void PageCounter::charge<true>(std::int64_t);
template void PageCounter::charge<false>(std::int64_t);
template void PageCounter::uncharge<true>(std::int64_t);
template void PageCounter::uncharge<false>(std::int64_t);
template void PageCounter::cancel<true>(std::int64_t);
template void PageCounter::cancel<false>(std::int64_t);

} // namespace hitmap::engine
