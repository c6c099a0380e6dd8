#pragma once
// Kamezawa's 2009 per-CPU precharge for res_counter (seed 003): pages are charged to the
// counter `batch` at a time and handed out one by one from the stock; uncharged pages are
// gathered and given back `batch` at a time. The stock holds only what the counter already
// granted, so usage never exceeds the limit; when a whole batch is refused it falls back to
// one page. With batch 1 it is 2.6.31's path: one res_counter call per page.
// One stock per worker slot; only its owner touches it.
#include "engine/memcg/res_counter.hpp"

namespace hitmap::engine {

inline constexpr std::uint64_t kPageSize = 4096;

struct ResCounterStockCounters {
    std::uint64_t stock_hits = 0;        // pages served from the precharge
    std::uint64_t counter_charges = 0;   // successful res_counter_charge calls
    std::uint64_t counter_uncharges = 0; // res_counter_uncharge calls
    std::uint64_t charge_refusals = 0;   // res_counter_charge calls refused at a limit
    std::uint64_t page_failures = 0;     // pages that could not be charged at all
};

class ResCounterStock {
public:
    ResCounterStock(ResCounter& counter, unsigned batch, ResCounterStockCounters& counters)
        : counter_(counter)
        , batch_(batch)
        , counters_(counters) {}

    bool charge_page();
    void uncharge_page();
    // Gives the precharged and the gathered pages back to the counter.
    void drain();

    unsigned precharged_pages() const { return precharged_; }
    unsigned pending_uncharges() const { return pending_uncharge_; }

private:
    bool charge_pages(unsigned pages);

    ResCounter& counter_;
    unsigned batch_;
    ResCounterStockCounters& counters_;
    unsigned precharged_ = 0;
    unsigned pending_uncharge_ = 0;
};

} // namespace hitmap::engine
