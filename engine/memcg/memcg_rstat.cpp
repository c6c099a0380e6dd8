#include "engine/memcg/memcg_rstat.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

namespace hitmap::engine {

namespace {

constexpr long kMemcgChargeBatch = 64; // MEMCG_CHARGE_BATCH

bool is_event(unsigned item) {
    return item >= kMemcg1States.size();
}
const MemcgStatItem& item_of(unsigned item) {
    return is_event(item) ? kMemcg1Events[item - kMemcg1States.size()] : kMemcg1States[item];
}
// The item's counter and its prev in struct memcg_vmstats_percpu.
std::uint32_t percpu_value(unsigned item) {
    return is_event(item) ? vmstats_percpu::events(item_of(item).index)
                          : vmstats_percpu::state(item_of(item).index);
}
std::uint32_t percpu_prev(unsigned item) {
    return is_event(item) ? vmstats_percpu::events_prev(item_of(item).index)
                          : vmstats_percpu::state_prev(item_of(item).index);
}

// The order memcg1_stat_format() prints: memcg1_stats[], memcg1_events[], the LRU lists.
constexpr std::array<unsigned, kMemcg1Items> kPrintOrder{0,  1,  2,  3,  4,  5,  6,  7,  8, 9,
                                                         15, 16, 17, 18, 10, 11, 12, 13, 14};

} // namespace

MemcgRstat::MemcgRstat(ObjectRegistry& registry, const MemcgRstatConfig& config)
    : config_(config)
    , rstat_cpu_(config.version == StatsVersion::v6_6 ? kRstatCpuV6_6 : kRstatCpuV6_5)
    , percpu_(config.possible_cpus)
    , globals_(registry, "memcg flush globals", *find_builtin_layout("memcg_flush_globals", "v6.5"),
               0) {
    const Layout& vmstats_layout = *find_builtin_layout(
        "memcg_vmstats", config.version == StatsVersion::v6_6 ? "v6.6" : "v6.5");
    stats_updates_ = percpu_.alloc(sizeof(unsigned));
    cpu_lock_ = percpu_.alloc(sizeof(unsigned));
    const PageCounterSemantics semantics{};
    nodes_.reserve(config.memcgs + 1);
    for (unsigned m = 0; m <= config.memcgs; ++m) {
        const std::string name = m == 0 ? "root" : fmt::format("cg{}", m);
        Node n;
        MemCgroup* parent = m == 0 ? nullptr : nodes_.front().memcg.get();
        n.memcg =
            std::make_unique<MemCgroup>(registry, name, parent, config.mem_cgroup, 0, semantics);
        // As cgroup_create() and mem_cgroup_alloc() allocate them: the cgroup's rstat_cpu,
        // then the memcg's vmstats_percpu.
        n.rstat_cpu = percpu_.alloc(rstat_cpu_.size);
        n.vmstats_percpu = percpu_.alloc(vmstats_percpu::kSize);
        n.vmstats = std::make_unique<ProbedObject>(registry, name + " vmstats", vmstats_layout, 0);
        nodes_.push_back(std::move(n));
    }
    percpu_.commit();
}

MemcgRstat::~MemcgRstat() = default;

template <bool Traced> void MemcgRstat::update(unsigned cpu, unsigned m, unsigned item, long val) {
    percpu_.add<Traced>(cpu, nodes_[m].vmstats_percpu + percpu_value(item), val,
                        Site::mod_memcg_state);
    // memcg_rstat_updated()
    if (val == 0)
        return;
    rstat_updated<Traced>(cpu, m);
    const std::int64_t x =
        percpu_.add<Traced>(cpu, stats_updates_, std::abs(val), Site::memcg_rstat_updated);
    if (x > kMemcgChargeBatch) {
        if (globals_.load<Traced>(flushglobal::stats_flush_threshold, Site::memcg_rstat_updated) <=
            config_.online_cpus)
            globals_.add_return<Traced>(flushglobal::stats_flush_threshold, x / kMemcgChargeBatch,
                                        Site::memcg_rstat_updated);
        percpu_.store<Traced>(cpu, stats_updates_, 0, Site::memcg_rstat_updated);
    }
}

// Links encode a memcg as its index + 1 (0 is NULL). A child's list ends at its parent, the
// root (1); an empty updated_children list is 0 here where the kernel points it at its owner.
template <bool Traced> void MemcgRstat::rstat_updated(unsigned cpu, unsigned m) {
    const Site site = Site::cgroup_rstat_updated;
    const auto next_of = [&](unsigned x) { return nodes_[x].rstat_cpu + rstat_cpu_.updated_next; };
    const std::uint32_t root_children = nodes_[0].rstat_cpu + rstat_cpu_.updated_children;
    if (percpu_.load<Traced>(cpu, next_of(m), site) != 0)
        return; // already queued: no lock
    percpu_.add<Traced>(cpu, cpu_lock_, 1, site);
    for (unsigned x = m;;) {
        if (percpu_.load<Traced>(cpu, next_of(x), site) != 0)
            break;
        if (x == 0) { // the root: no parent to link to, but marked busy
            percpu_.store<Traced>(cpu, next_of(0), 1, site);
            break;
        }
        const std::int64_t head = percpu_.load<Traced>(cpu, root_children, site);
        percpu_.store<Traced>(cpu, next_of(x), head == 0 ? 1 : head, site);
        percpu_.store<Traced>(cpu, root_children, x + 1, site);
        x = 0;
    }
    percpu_.store<Traced>(cpu, cpu_lock_, 0, site);
}

template <bool Traced> void MemcgRstat::flush_stats(unsigned cpu, MemcgRstatCounts& counts) {
    const Site site = Site::mem_cgroup_flush_stats;
    using namespace flushglobal;
    if (static_cast<std::int64_t>(globals_.load<Traced>(stats_flush_threshold, site)) <=
        static_cast<std::int64_t>(config_.online_cpus))
        return;
    // do_flush_stats(): one flusher; the others return without waiting.
    if (globals_.load<Traced>(stats_flush_ongoing, site) != 0 ||
        globals_.exchange<Traced>(stats_flush_ongoing, 1, site) != 0) {
        ++counts.flushes_skipped;
        return;
    }
    globals_.store<Traced>(flush_next_time, counts.flushes + 1, site);
    rstat_flush<Traced>(cpu, counts);
    globals_.store<Traced>(stats_flush_threshold, 0, site);
    globals_.store<Traced>(stats_flush_ongoing, 0, site);
    ++counts.flushes;
}

// cgroup_rstat_flush_locked(root): every possible CPU's list, children before the root.
template <bool Traced> void MemcgRstat::rstat_flush(unsigned, MemcgRstatCounts& counts) {
    const Site site = Site::cgroup_rstat_flush;
    const std::uint32_t root_children = nodes_[0].rstat_cpu + rstat_cpu_.updated_children;
    const std::uint32_t root_next = nodes_[0].rstat_cpu + rstat_cpu_.updated_next;
    percpu_.for_each_possible([&](unsigned c) {
        percpu_.add<Traced>(c, cpu_lock_, 1, site);
        if (percpu_.load<Traced>(c, root_next, site) != 0) {
            for (std::int64_t head; (head = percpu_.load<Traced>(c, root_children, site)) != 0;) {
                const auto m = static_cast<unsigned>(head - 1);
                const std::uint32_t next = nodes_[m].rstat_cpu + rstat_cpu_.updated_next;
                const std::int64_t after = percpu_.load<Traced>(c, next, site);
                percpu_.store<Traced>(c, root_children, after == 1 ? 0 : after, site);
                percpu_.store<Traced>(c, next, 0, site);
                css_rstat_flush<Traced>(m, c);
                ++counts.flushed_pairs;
            }
            percpu_.store<Traced>(c, root_next, 0, site);
            css_rstat_flush<Traced>(0, c);
            ++counts.flushed_pairs;
        }
        percpu_.store<Traced>(c, cpu_lock_, 0, site);
    });
}

// mem_cgroup_css_rstat_flush(css, cpu) over the modelled items.
template <bool Traced> void MemcgRstat::css_rstat_flush(unsigned m, unsigned cpu) {
    const Site site = Site::mem_cgroup_css_rstat_flush;
    ProbedObject& stats = *nodes_[m].vmstats;
    ProbedObject* parent = m == 0 ? nullptr : nodes_[0].vmstats.get();
    const bool v6_6 = config_.version == StatsVersion::v6_6;
    for (unsigned i = 0; i < kMemcg1Items; ++i) {
        const FieldId pending = vmstats::field(vmstats::pending, i);
        auto delta = static_cast<std::int64_t>(stats.load<Traced>(pending, site));
        if (delta != 0)
            stats.store<Traced>(pending, 0, site);
        const std::uint32_t at = nodes_[m].vmstats_percpu;
        const std::int64_t v = percpu_.load<Traced>(cpu, at + percpu_value(i), site);
        const std::int64_t prev = percpu_.load<Traced>(cpu, at + percpu_prev(i), site);
        std::int64_t delta_cpu = 0;
        if (v != prev) {
            delta_cpu = v - prev;
            delta += delta_cpu;
            percpu_.store<Traced>(cpu, at + percpu_prev(i), v, site);
        }
        if (v6_6 && delta_cpu != 0)
            stats.add_local<Traced>(vmstats::field(vmstats::local, i), delta_cpu, site);
        if (delta != 0) {
            stats.add_local<Traced>(vmstats::field(vmstats::value, i), delta, site);
            if (parent)
                parent->add_local<Traced>(pending, delta, site);
        }
    }
}

template <bool Traced> std::int64_t MemcgRstat::read_local(unsigned m, unsigned item) const {
    const Site site = is_event(item) ? Site::memcg_events_local : Site::memcg_page_state_local;
    std::int64_t x = 0;
    if (config_.version == StatsVersion::v6_6) {
        x = static_cast<std::int64_t>(
            nodes_[m].vmstats->load<Traced>(vmstats::field(vmstats::local, item), site));
    } else {
        // for_each_possible_cpu(): the loads are independent, so their misses overlap.
        const std::uint32_t at = nodes_[m].vmstats_percpu + percpu_value(item);
        percpu_.for_each_possible(
            [&](unsigned c) { x += percpu_.load<Traced>(c, at, site, true); });
    }
    return is_event(item) ? x : std::max<std::int64_t>(x, 0);
}

template <bool Traced>
void MemcgRstat::memory_stat(unsigned cpu, unsigned m, std::string& out, MemcgRstatCounts& counts) {
    flush_stats<Traced>(cpu, counts);
    out.clear();
    auto to = std::back_inserter(out);
    for (const unsigned i : kPrintOrder) {
        fmt::format_to(to, "{} {}\n", item_of(i).name, read_local<Traced>(m, i) * item_of(i).unit);
        if (config_.version == StatsVersion::v6_5)
            counts.percpu_reads += percpu_.possible_cpus();
    }
    // The limit walk: every ancestor's memory.max and memsw.max.
    const Site site = Site::memcg1_stat_format;
    std::int64_t memory = kPageCounterMax, memsw = kPageCounterMax;
    for (const MemCgroup* mi = &memcg(m); mi; mi = mi->parent_probed<Traced>(site)) {
        memory = std::min(memory, static_cast<std::int64_t>(mi->load<Traced>(
                                      counter_field(Counter::memory, pc::max), site)));
        memsw = std::min(memsw, static_cast<std::int64_t>(
                                    mi->load<Traced>(counter_field(Counter::swap, pc::max), site)));
    }
    fmt::format_to(to, "hierarchical_memory_limit {}\nhierarchical_memsw_limit {}\n", memory * 4096,
                   memsw * 4096);
    for (const unsigned i : kPrintOrder) {
        const Site total = is_event(i) ? Site::memcg_events : Site::memcg_page_state;
        auto x = static_cast<std::int64_t>(
            nodes_[m].vmstats->load<Traced>(vmstats::field(vmstats::value, i), total));
        if (!is_event(i))
            x = std::max<std::int64_t>(x, 0);
        fmt::format_to(to, "total_{} {}\n", item_of(i).name, x * item_of(i).unit);
    }
}

std::int64_t MemcgRstat::local_value(unsigned m, unsigned item) const {
    return read_local<false>(m, item);
}

std::int64_t MemcgRstat::total_value(unsigned m, unsigned item) const {
    return static_cast<std::int64_t>(nodes_[m].vmstats->peek(vmstats::field(vmstats::value, item)));
}

template void MemcgRstat::update<true>(unsigned, unsigned, unsigned, long);
template void MemcgRstat::update<false>(unsigned, unsigned, unsigned, long);
template void MemcgRstat::flush_stats<true>(unsigned, MemcgRstatCounts&);
template void MemcgRstat::flush_stats<false>(unsigned, MemcgRstatCounts&);
template void MemcgRstat::memory_stat<true>(unsigned, unsigned, std::string&, MemcgRstatCounts&);
template void MemcgRstat::memory_stat<false>(unsigned, unsigned, std::string&, MemcgRstatCounts&);

} // namespace hitmap::engine
