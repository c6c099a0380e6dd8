#include "collector/run/thread_counters.hpp"

namespace hitmap::collector {

ThreadCounters::ThreadCounters(unsigned threads)
    : groups_(threads)
    , values_(threads) {}

engine::ThreadHooks ThreadCounters::hooks() {
    // Each slot is touched only by its own worker thread, so no lock is needed.
    return engine::ThreadHooks{[this](unsigned slot) {
                                   groups_[slot].emplace();
                                   groups_[slot]->enable();
                               },
                               [this](unsigned slot) {
                                   groups_[slot]->disable();
                                   values_[slot] = groups_[slot]->read();
                                   groups_[slot].reset();
                               }};
}

std::vector<perf::CounterValue> ThreadCounters::totals() const {
    return perf::sum_across_threads(values_);
}

} // namespace hitmap::collector
