#pragma once
// struct page_counter and mm/page_counter.c, modelled per reference/memcg.md §1.4.
// The code is the same for every layout; the version differences in behaviour are chosen by
// PageCounterSemantics, so "layout only" and "code only" experiments stay separable.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/probe/probed_object.hpp"

#include <cstdint>

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

class PageCounter : public ProbedObject {
public:
    // Throws LayoutError if the layout lacks a field these semantics touch.
    PageCounter(ObjectRegistry& registry, std::string name, const Layout& layout,
                std::uint32_t phase, PageCounter* parent, PageCounterSemantics semantics);

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
    template <bool Traced> bool tracks_protection(Site site) const;
    template <bool Traced> void propagate_protected_usage(std::int64_t usage);
    template <bool Traced>
    void propagate_one(pc::Field limit, pc::Field protected_usage, pc::Field parent_children,
                       std::int64_t usage);
    template <bool Traced> void update_watermark(std::int64_t usage, Site site);

    PageCounter* parent_;
    PageCounterSemantics semantics_;
};

} // namespace hitmap::engine
