#pragma once
// Several per-thread collectors (counters, kernel lock tracers) share the one pair of hooks a
// WorkerPool takes: started in order, stopped in reverse, like nested scopes.
#include "engine/runtime/worker_pool.hpp"

#include <vector>

namespace hitmap::collector {

inline engine::ThreadHooks chain_hooks(std::vector<engine::ThreadHooks> all) {
    engine::ThreadHooks chained;
    chained.on_start = [all](unsigned slot) {
        for (const auto& h : all)
            if (h.on_start)
                h.on_start(slot);
    };
    chained.on_stop = [all](unsigned slot) {
        for (auto it = all.rbegin(); it != all.rend(); ++it)
            if (it->on_stop)
                it->on_stop(slot);
    };
    return chained;
}

} // namespace hitmap::collector
