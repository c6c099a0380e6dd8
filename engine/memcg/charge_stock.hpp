#pragma once
// The per-CPU charge cache (struct memcg_stock_pcp, mm/memcontrol.c v5.10 semantics,
// reference/memcg.md §2.2). One stock per worker slot; only its owner touches it, as only
// the local CPU touches its stock with interrupts off.
#include "engine/memcg/mem_cgroup.hpp"
#include "engine/memcg/memcg_stats.hpp"

namespace hitmap::engine {

class ChargeStock : public ProbedObject {
public:
    ChargeStock(ObjectRegistry& registry, std::string name, const Layout& layout, unsigned batch);

    // Traced: see ProbedObject::load. Both copies are compiled (charge_stock.cpp).
    template <bool Traced = true> bool consume(MemCgroup* memcg, unsigned nr_pages);
    template <bool Traced = true> void refill(MemCgroup* memcg, unsigned nr_pages);
    template <bool Traced = true> void drain();

    unsigned batch() const { return batch_; }
    // cgroup v1 with swap accounting (do_memsw_account()): memsw is charged and uncharged with
    // memory, batched by the same stock.
    void set_memsw(bool on) { memsw_ = on; }
    bool memsw() const { return memsw_; }
    unsigned cached_pages() const { return static_cast<unsigned>(peek(stock::nr_pages)); }
    // The memcg it caches (null: none), without a probe: a CPU choosing among its own stocks
    // reads only what it alone writes.
    const MemCgroup* cached_memcg() const {
        return reinterpret_cast<const MemCgroup*>(static_cast<std::uintptr_t>(peek(stock::cached)));
    }

private:
    template <bool Traced> MemCgroup* cached(Site site) const {
        return reinterpret_cast<MemCgroup*>(
            static_cast<std::uintptr_t>(load<Traced>(stock::cached, site)));
    }

    unsigned batch_;
    bool memsw_ = false;
};

struct ChargeCounters {
    std::uint64_t stock_hits = 0;
    std::uint64_t counter_charges = 0; // batches charged to the page_counter hierarchy
    std::uint64_t failures = 0;        // charges refused at a limit
    std::uint64_t over_high = 0;       // charges that found a level above memory.high

    ChargeCounters& operator+=(const ChargeCounters& o) {
        stock_hits += o.stock_hits;
        counter_charges += o.counter_charges;
        failures += o.failures;
        over_high += o.over_high;
        return *this;
    }
};

// try_charge_memcg() and the socket-memory charge and uncharge, for one CPU's stock and
// statistics.
class MemcgCharger {
public:
    // `stats` null: no statistics update (the model of the charge path alone).
    MemcgCharger(ChargeStock& stock, ChargeCounters& counters, MemcgStatsCpu* stats = nullptr)
        : stock_(stock)
        , counters_(counters)
        , stats_(stats) {}

    template <bool Traced = true> bool try_charge(MemCgroup& memcg, unsigned nr_pages);
    // mem_cgroup_charge_skmem() on cgroup v2: try_charge(), then mod_memcg_state(MEMCG_SOCK).
    template <bool Traced = true> bool charge_skmem(MemCgroup& memcg, unsigned nr_pages);
    // mem_cgroup_uncharge_skmem(): mod_memcg_state(MEMCG_SOCK, -n), then the pages go back
    // through the stock, drained past the batch.
    template <bool Traced = true> void uncharge_skmem(MemCgroup& memcg, unsigned nr_pages);
    // refill_stock(): pages given back through this CPU's stock, drained past the batch.
    template <bool Traced = true> void uncharge(MemCgroup& memcg, unsigned nr_pages) {
        stock_.refill<Traced>(&memcg, nr_pages);
    }

private:
    template <bool Traced> void check_high(MemCgroup& memcg);

    ChargeStock& stock_;
    ChargeCounters& counters_;
    MemcgStatsCpu* stats_;
};

} // namespace hitmap::engine
