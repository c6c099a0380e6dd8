#include "engine/locks/lock_class.hpp"

#include "engine/locks/lock_clock.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <string_view>

namespace hitmap::engine {

const char* to_string(LockKind kind) {
    return kind == LockKind::spinlock ? "spinlock" : "mutex";
}

// Cacheline-aligned so two workers' slots never share a line.
struct alignas(64) LockClass::Slot {
    std::uint64_t con_bounces = 0;
    std::uint64_t contentions = 0;
    LockTimeStat wait;
    std::uint64_t acq_bounces = 0;
    LockTimeStat hold;
    std::uint64_t contention_point_counts[PointTable::kPoints]{};
    std::uint64_t contending_point_counts[PointTable::kPoints]{};
    std::array<std::uint64_t, 64> wait_log2_ns{};
};

namespace {

void add_time(LockTimeStat& stat, std::uint64_t ns) {
    if (stat.count == 0 || ns < stat.min_ns)
        stat.min_ns = ns;
    stat.max_ns = std::max(stat.max_ns, ns);
    stat.total_ns += ns;
    ++stat.count;
}

void merge_time(LockTimeStat& into, const LockTimeStat& from) {
    if (from.count == 0)
        return;
    if (into.count == 0 || from.min_ns < into.min_ns)
        into.min_ns = from.min_ns;
    into.max_ns = std::max(into.max_ns, from.max_ns);
    into.total_ns += from.total_ns;
    into.count += from.count;
}

unsigned log2_bucket(std::uint64_t ns) {
    return ns == 0 ? 0 : static_cast<unsigned>(std::bit_width(ns)) - 1;
}

std::uint64_t site_key(const std::source_location& site) {
    // The compiler emits one file_name string per translation unit, so (file, line, column)
    // names a call site; 0 is reserved for "free entry".
    const auto file = reinterpret_cast<std::uintptr_t>(site.file_name());
    return (file * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t{site.line()} << 20) ^ site.column() ^ 1;
}

bool is_known(const std::source_location& site) {
    return site.line() != 0;
}

// "engine/memcg/res_counter.cpp:57": relative to the source root, as reports print it.
std::string relative_location(const std::source_location& site) {
    std::string_view file = site.file_name();
    constexpr std::string_view root = HITMAP_SOURCE_ROOT;
    if (file.starts_with(root))
        file.remove_prefix(root.size());
    // Builds compiled with relative paths (ccache base_dir) name files from the build folder.
    while (file.starts_with("../"))
        file.remove_prefix(3);
    return fmt::format("{}:{}", file, site.line());
}

} // namespace

unsigned LockClass::PointTable::index_of(const std::source_location& site) {
    const std::uint64_t key = site_key(site);
    for (unsigned i = 0; i < kPoints; ++i) {
        std::uint64_t seen = keys_[i].load(std::memory_order_acquire);
        if (seen == 0 && keys_[i].compare_exchange_strong(seen, key, std::memory_order_acq_rel)) {
            sites_[i] = site;
            return i;
        }
        if (seen == key)
            return i;
    }
    return kPoints;
}

std::vector<LockSiteCount>
LockClass::PointTable::counts(const std::vector<std::uint64_t>& per_point) const {
    std::vector<LockSiteCount> out;
    for (unsigned i = 0; i < kPoints; ++i)
        if (keys_[i].load(std::memory_order_acquire) != 0)
            out.push_back({sites_[i].function_name(), relative_location(sites_[i]), per_point[i]});
    return out;
}

LockClass::LockClass(std::string name, LockKind kind, unsigned slots)
    : name_(std::move(name))
    , kind_(kind)
    , slots_(std::make_unique<Slot[]>(slots + 1))
    , slot_count_(slots) {
    LockClock::calibrate();
}

LockClass::~LockClass() = default;

template <class Update> void LockClass::update_slot(Update&& update) {
    const unsigned slot = current_lock_slot();
    if (slot < slot_count_) [[likely]] {
        update(slots_[slot]);
        return;
    }
    std::lock_guard guard(overflow_mutex_);
    update(slots_[slot_count_]);
}

void LockClass::record_contention(const LockContention& c) {
    const unsigned waiter = contention_points_.index_of(c.waiter);
    const unsigned holder =
        is_known(c.holder) ? contending_points_.index_of(c.holder) : PointTable::kPoints;
    update_slot([&](Slot& s) {
        ++s.contentions;
        s.con_bounces += c.bounce ? 1 : 0;
        add_time(s.wait, c.wait_ns);
        ++s.wait_log2_ns[log2_bucket(c.wait_ns)];
        if (waiter < PointTable::kPoints)
            ++s.contention_point_counts[waiter];
        if (holder < PointTable::kPoints)
            ++s.contending_point_counts[holder];
    });
}

void LockClass::record_acquisition(bool bounce) {
    if (bounce)
        update_slot([](Slot& s) { ++s.acq_bounces; });
}

void LockClass::record_release(std::uint64_t hold_ns) {
    update_slot([&](Slot& s) { add_time(s.hold, hold_ns); });
}

LockClassReport LockClass::report() const {
    LockClassReport r;
    r.name = name_;
    r.kind = to_string(kind_);
    std::vector<std::uint64_t> contention_counts(PointTable::kPoints);
    std::vector<std::uint64_t> contending_counts(PointTable::kPoints);
    for (unsigned i = 0; i <= slot_count_; ++i) {
        const Slot& s = slots_[i];
        r.con_bounces += s.con_bounces;
        r.contentions += s.contentions;
        merge_time(r.wait, s.wait);
        r.acq_bounces += s.acq_bounces;
        merge_time(r.hold, s.hold);
        for (unsigned p = 0; p < PointTable::kPoints; ++p) {
            contention_counts[p] += s.contention_point_counts[p];
            contending_counts[p] += s.contending_point_counts[p];
        }
        for (std::size_t b = 0; b < r.wait_log2_ns.size(); ++b)
            r.wait_log2_ns[b] += s.wait_log2_ns[b];
    }
    r.acquisitions = r.hold.count;
    r.contention_points = contention_points_.counts(contention_counts);
    r.contending_points = contending_points_.counts(contending_counts);
    return r;
}

} // namespace hitmap::engine
