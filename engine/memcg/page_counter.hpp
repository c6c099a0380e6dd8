#pragma once
// struct page_counter and mm/page_counter.c, modelled per reference/memcg.md §1.4.
// The code is the same for every layout; the version differences in behaviour are chosen by
// PageCounterSemantics, so "layout only" and "code only" experiments stay separable.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/probe/probed_object.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace hitmap::engine {

enum class ProtectionPropagation {
    always_exchange, // <= v6.0: atomic xchg of min_usage/low_usage on every charge
    on_change,       // v6.1+: read first, xchg only when the protected amount changed
};

struct PageCounterSemantics {
    ProtectionPropagation propagation = ProtectionPropagation::on_change;
    // v6.12+: protection_support gates propagation, local_watermark precedes watermark;
    // v6.15+: track_failcnt gates the failcnt increment.
    bool v6_15_fields = false;
};

// PAGE_COUNTER_MAX on 64-bit: LONG_MAX / PAGE_SIZE.
inline constexpr std::int64_t kPageCounterMax = INT64_MAX / 4096;

// A page_counter is either an object of its own (struct page_counter) or embedded in another
// probed object, e.g. memcg->memory inside struct mem_cgroup, whose page_counter fields are
// the pc::Field ids shifted by `first_field`. The code is the same either way: what a probe
// records is the owner's field, so a report names "memory.usage" of "top/mid/leaf".
class PageCounter {
public:
    // Throws LayoutError if the layout lacks a field these semantics touch.
    PageCounter(ObjectRegistry& registry, std::string name, const Layout& layout,
                std::uint32_t phase, PageCounter* parent, PageCounterSemantics semantics);
    PageCounter(ProbedObject& owner, FieldId first_field, PageCounter* parent,
                PageCounterSemantics semantics);
    PageCounter(const PageCounter&) = delete;
    PageCounter& operator=(const PageCounter&) = delete;

    // The object holding the counter (itself, when it stands alone).
    ProbedObject& object() { return *object_; }
    const ProbedObject& object() const { return *object_; }
    std::uint64_t peek(pc::Field f) const { return object_->peek(field(f)); }

    // Traced: see ProbedObject::load. Both copies are compiled (page_counter.cpp).
    template <bool Traced = true> bool try_charge(std::int64_t nr_pages, PageCounter** fail);
    template <bool Traced = true> void charge(std::int64_t nr_pages);
    template <bool Traced = true> void uncharge(std::int64_t nr_pages);
    template <bool Traced = true> void cancel(std::int64_t nr_pages);

    template <bool Traced = true> std::int64_t read_usage(Site site) const {
        return static_cast<std::int64_t>(load<Traced>(pc::usage, site));
    }
    template <bool Traced = true> std::int64_t read_high(Site site) const {
        return static_cast<std::int64_t>(load<Traced>(pc::high, site));
    }

    // Limits are set up before the measured region, like writing memory.max from a shell.
    void set_limits(std::int64_t min, std::int64_t low, std::int64_t high, std::int64_t max);
    void set_protection_support(bool on);
    void set_track_failcnt(bool on);

    // Reads the parent pointer field (the walk touches the parent's line, as the kernel's does).
    template <bool Traced = true> PageCounter* parent_probed(Site site) const {
        return reinterpret_cast<PageCounter*>(
            static_cast<std::uintptr_t>(load<Traced>(pc::parent, site)));
    }
    PageCounter* parent() const { return parent_; }

    std::int64_t usage() const { return static_cast<std::int64_t>(peek(pc::usage)); }
    std::int64_t watermark() const { return static_cast<std::int64_t>(peek(pc::watermark)); }
    std::uint64_t failcnt() const { return peek(pc::failcnt); }
    std::int64_t min_usage() const { return static_cast<std::int64_t>(peek(pc::min_usage)); }
    std::int64_t low_usage() const { return static_cast<std::int64_t>(peek(pc::low_usage)); }
    std::int64_t children_min_usage() const {
        return static_cast<std::int64_t>(peek(pc::children_min_usage));
    }

private:
    FieldId field(pc::Field f) const { return static_cast<FieldId>(first_field_ + f); }
    void check_fields(std::string_view what) const;
    void initialise();
    template <bool Traced> std::uint64_t load(pc::Field f, Site site) const {
        return object_->load<Traced>(field(f), site);
    }
    template <bool Traced> void store(pc::Field f, std::uint64_t v, Site site) {
        object_->store<Traced>(field(f), v, site);
    }
    template <bool Traced> std::int64_t add_return(pc::Field f, std::int64_t delta, Site site) {
        return object_->add_return<Traced>(field(f), delta, site);
    }
    template <bool Traced> std::uint64_t exchange(pc::Field f, std::uint64_t v, Site site) {
        return object_->exchange<Traced>(field(f), v, site);
    }
    void poke(pc::Field f, std::uint64_t v) { object_->poke(field(f), v); }
    void store(pc::Field f, std::uint64_t v, Site site) { store<true>(f, v, site); }

    template <bool Traced> bool tracks_protection(Site site) const;
    template <bool Traced> void propagate_protected_usage(std::int64_t usage);
    template <bool Traced>
    void propagate_one(pc::Field limit, pc::Field protected_usage, pc::Field parent_children,
                       std::int64_t usage);
    template <bool Traced> void update_watermark(std::int64_t usage, Site site);

    std::unique_ptr<ProbedObject> own_; // set when the counter is an object of its own
    ProbedObject* object_;
    FieldId first_field_;
    PageCounter* parent_;
    PageCounterSemantics semantics_;
};

} // namespace hitmap::engine
