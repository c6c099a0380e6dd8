#include "engine/memcg/res_counter_stock.hpp"

namespace hitmap::engine {

bool ResCounterStock::charge_pages(unsigned pages) {
    if (counter_.charge(pages * kPageSize)) {
        ++counters_.counter_charges;
        return true;
    }
    ++counters_.charge_refusals;
    return false;
}

bool ResCounterStock::charge_page() {
    if (precharged_ > 0) {
        --precharged_;
        ++counters_.stock_hits;
        return true;
    }
    if (batch_ > 1 && charge_pages(batch_)) {
        precharged_ = batch_ - 1;
        return true;
    }
    if (charge_pages(1))
        return true;
    ++counters_.page_failures;
    return false;
}

void ResCounterStock::uncharge_page() {
    if (++pending_uncharge_ < batch_)
        return;
    counter_.uncharge(pending_uncharge_ * kPageSize);
    ++counters_.counter_uncharges;
    pending_uncharge_ = 0;
}

void ResCounterStock::drain() {
    if (const unsigned pages = precharged_ + pending_uncharge_; pages > 0) {
        counter_.uncharge(pages * kPageSize);
        ++counters_.counter_uncharges;
    }
    precharged_ = 0;
    pending_uncharge_ = 0;
}

} // namespace hitmap::engine
