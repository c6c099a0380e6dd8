#include "collector/run/engine_locks.hpp"

#include <fmt/format.h>

namespace hitmap::collector {

namespace {

locks::LockTimes times(const engine::LockTimeStat& t) {
    const auto ns = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
    return {ns(t.min_ns), ns(t.max_ns), ns(t.total_ns), ns(t.count ? t.total_ns / t.count : 0)};
}

// "bool hitmap::engine::ResCounter::charge(uint64_t, ...)" -> "ResCounter::charge": what
// %pS would print for a kernel function, without the signature's noise.
std::string short_function(const std::string& full) {
    std::string name = full.substr(0, full.find('('));
    name = name.substr(name.find_last_of(' ') + 1);
    for (const std::string prefix : {"hitmap::engine::", "hitmap::"})
        if (name.starts_with(prefix))
            return name.substr(prefix.size());
    return name;
}

std::vector<locks::LockPoint> points(const std::vector<engine::LockSiteCount>& sites) {
    std::vector<locks::LockPoint> out;
    // No code address: the engine names a site by source position, the file:line form.
    for (const auto& s : sites)
        out.push_back({s.count, std::nullopt,
                       fmt::format("{} ({})", short_function(s.function), s.location)});
    return out;
}

} // namespace

store::LockData engine_lock_data(const std::vector<engine::LockClassReport>& classes) {
    store::LockData data;
    data.source = store::LockSource::engine;
    data.report.format = locks::LockFormat::lockstat_v04;
    data.report.version = "0.4";
    data.report.has_header = true;
    for (const engine::LockClassReport& r : classes) {
        locks::LockClassStats c;
        c.name = r.name;
        c.key = locks::LockKey::lock_class;
        c.lock_type = r.kind;
        c.source = locks::LockFormat::lockstat_v04;
        // lock_stat prints an exclusive lock as the bare "name:" row, the write side.
        c.write = locks::LockCounters{r.con_bounces, r.contentions,  times(r.wait),
                                      r.acq_bounces, r.acquisitions, times(r.hold)};
        c.contention_points = points(r.contention_points);
        c.contending_points = points(r.contending_points);
        locks::WaitHistogram histogram;
        histogram.counts = r.wait_log2_ns;
        if (histogram.total() > 0)
            data.histograms.emplace(r.name, histogram);
        data.report.classes.push_back(std::move(c));
    }
    return data;
}

} // namespace hitmap::collector
