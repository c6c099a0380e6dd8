#include "engine/workloads/res_counter_charge.hpp"

#include "engine/locks/lock_slot.hpp"
#include "engine/memcg/res_counter_stock.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>

namespace hitmap::engine {

const std::vector<ResCounterChargeVariant>& ResCounterChargeWorkload::variants() {
    static const std::vector<ResCounterChargeVariant> all{
        {"per-page", "2.6.31: every page charged and uncharged with one res_counter call", false},
        {"precharge",
         "Kamezawa 2009: per-CPU stock precharged in batches, uncharges batched likewise", true},
    };
    return all;
}

ResCounterChargeWorkload::ResCounterChargeWorkload() {
    info_.name = "res-counter-charge";
    info_.probed = false; // res_counter is plain members; the lock statistics are the result
    info_.seed = "003";
    info_.description = "page charging into a 2.6.31 res_counter hierarchy (a spinlock per "
                        "level), per page or through a per-CPU precharge";
    for (const auto& v : variants())
        info_.variants.push_back({v.name, v.description});
    info_.params = {
        {"depth", 2u, "res_counter levels a charge walks, the root included (memcg, root)"},
        {"batch", 32u, "precharge batch in pages (the per-page variant charges 1)"},
        {"inflight", 64u, "pages a thread holds before it must uncharge one"},
        {"limit_pages", 1u << 20, "limit of the charged (leaf) res_counter, in pages"},
        {"clear_page", true,
         "zero each charged page, as the fault path does: the work between "
         "charges that lets the precharge show (without it both variants "
         "saturate the lock)"},
    };
}

namespace {

const ResCounterChargeVariant& variant_named(std::string_view name) {
    const auto& all = ResCounterChargeWorkload::variants();
    return *std::find_if(all.begin(), all.end(), [&](const auto& v) { return v.name == name; });
}

// The leaf (the memcg the tasks run in) up to an unlimited root, as with use_hierarchy=1.
class ResCounterChain {
public:
    ResCounterChain(LockClass& lock_class, unsigned depth, std::uint64_t leaf_limit) {
        for (unsigned level = 0; level < depth; ++level) {
            ResCounter* parent = levels_.empty() ? nullptr : levels_.back().get();
            const bool leaf = level + 1 == depth;
            levels_.push_back(std::make_unique<ResCounter>(lock_class, parent,
                                                           leaf ? leaf_limit : kResCounterMax));
        }
    }
    ResCounter& leaf() { return *levels_.back(); }
    ResCounter& root() { return *levels_.front(); }

private:
    std::vector<std::unique_ptr<ResCounter>> levels_; // root first
};

// clear_page(): the fault path zeroes every page it charges.
class PageClearer {
public:
    void clear() {
        std::memset(page_.data(), 0, page_.size());
        // Keeps the stores: nothing reads the page, and the compiler would drop them.
        asm volatile("" : : "r"(page_.data()) : "memory");
    }

private:
    alignas(64) std::array<std::byte, kPageSize> page_;
};

} // namespace

void ResCounterChargeWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const nlohmann::json p = resolve_params(config);
    if (p["depth"].get<unsigned>() == 0 || p["depth"].get<unsigned>() > 16)
        throw WorkloadError("depth must be in 1..16");
    if (p["batch"].get<unsigned>() == 0 || p["inflight"].get<unsigned>() == 0)
        throw WorkloadError("batch and inflight must be at least 1");
    if (p["limit_pages"].get<unsigned>() == 0)
        throw WorkloadError("limit_pages must be at least 1");
}

WorkloadResult ResCounterChargeWorkload::run(const WorkloadRunConfig& config,
                                             const ThreadHooks& hooks) const {
    validate(config);
    const auto& variant = variant_named(config.variant);
    const nlohmann::json p = resolve_params(config);
    const unsigned batch = variant.precharge ? p["batch"].get<unsigned>() : 1;
    const unsigned inflight = p["inflight"].get<unsigned>();
    const bool clear_page = p["clear_page"].get<bool>();

    WorkloadResult result;
    LockClass counter_lock(kResCounterLockClass, LockKind::spinlock, config.threads);
    ResCounterChain chain(counter_lock, p["depth"].get<unsigned>(),
                          std::uint64_t{p["limit_pages"].get<unsigned>()} * kPageSize);
    std::vector<ResCounterStockCounters> counters(config.threads);
    result.ops_per_thread.assign(config.threads, 0);

    result.seconds = WorkerPool::run(
        config.threads, config.stop, hooks, [&](unsigned slot, const std::atomic<bool>& stop) {
            LockSlotScope lock_slot(slot);
            ResCounterStock stock(chain.leaf(), batch, counters[slot]);
            auto page = std::make_unique<PageClearer>();
            const std::uint64_t limit = config.stop.iterations.value_or(UINT64_MAX);
            unsigned held = 0;
            std::uint64_t ops = 0;
            while (ops < limit) {
                if ((ops & 63) == 0 && stop.load(std::memory_order_relaxed))
                    break;
                // A page faulted in, the oldest one freed once `inflight` are held.
                if (held == inflight) {
                    stock.uncharge_page();
                    --held;
                }
                if (stock.charge_page()) {
                    ++held;
                    if (clear_page)
                        page->clear();
                }
                ++ops;
            }
            // Give back what is still held, outside the counted operations.
            for (; held > 0; --held)
                stock.uncharge_page();
            stock.drain();
            result.ops_per_thread[slot] = ops;
        });

    for (unsigned t = 0; t < config.threads; ++t)
        result.ops += result.ops_per_thread[t];
    ResCounterStockCounters total;
    for (const auto& c : counters) {
        total.stock_hits += c.stock_hits;
        total.counter_charges += c.counter_charges;
        total.counter_uncharges += c.counter_uncharges;
        total.charge_refusals += c.charge_refusals;
        total.page_failures += c.page_failures;
    }
    result.resolved_params = p;
    result.resolved_params["batch"] = batch;
    result.stats = {{"stock_hits", total.stock_hits},
                    {"counter_charges", total.counter_charges},
                    {"counter_uncharges", total.counter_uncharges},
                    {"charge_refusals", total.charge_refusals},
                    {"page_failures", total.page_failures},
                    {"leaf_failcnt", chain.leaf().failcnt()},
                    {"leaf_max_usage", chain.leaf().max_usage()},
                    {"final_root_usage", chain.root().usage()}};
    result.locks.push_back(counter_lock.report());
    return result;
}

} // namespace hitmap::engine
