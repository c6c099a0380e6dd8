#pragma once
// A lock table as an import of lock_stat would store it: one read/write class with a contention
// point and a wait histogram, one exclusive class a source printed without wait times. For the
// lock comparison's tests in the analysis library and the app's lock models.
#include "collector/store/lock_tables.hpp"

#include <cstdint>
#include <optional>

namespace hitmap::testing {

inline store::LockData lock_table(std::uint64_t rq_contentions) {
    store::LockData d;
    d.source = store::LockSource::lockstat;
    locks::LockClassStats rq;
    rq.name = "&rq->lock";
    rq.write = locks::LockCounters{1, rq_contentions, {100, 9000, 50000, 500}, 2, 40, {}};
    rq.read = locks::LockCounters{0, 5, {100, 200, 600, 120}, 0, 10, {}};
    rq.contention_points = {{7, std::nullopt, "task_rq_lock+0x43/0x75"}};
    locks::LockClassStats other;
    other.name = "&counter->lock";
    other.write = locks::LockCounters{3, 1000, {}, 4, 9000, {}};
    d.report.classes = {rq, other};
    locks::WaitHistogram h;
    h.record(600);  // bucket 9: [512, 1024)
    h.record(3000); // bucket 11
    d.histograms.emplace("&rq->lock", h);
    return d;
}

} // namespace hitmap::testing
