#pragma once
// Page charging in 2009 (mm/memcontrol.c, v2.6.31, and the two patches of seed 003): a memcg
// has a css whose reference count every charged page holds, a res_counter `res`, and with swap
// accounting a second one, `memsw`, charged for every page too (two locks of the one class).
// The counters have parents only with use_hierarchy=1 (2.6.31's default is 0).
//
// ResPageCharger is one task on one CPU: mem_cgroup_try_charge() and the uncharge of one page,
// per page as 2.6.31 did, or with Kamezawa's per-CPU precharge of CHARGE_SIZE =
// 4 * ((NR_CPUS >> 5) + 1) pages (kept per memcg and CPU, never drained, as in the mail) and
// the per-task uncharge batching merged for 2.6.33 (mem_cgroup_uncharge_start()/end() around
// unmap and truncate: unbounded, and only between those calls).
#include "engine/memcg/page_size.hpp"
#include "engine/memcg/res_counter.hpp"

#include <memory>
#include <vector>

namespace hitmap::engine {

// CHARGE_SIZE of the precharge patch, in pages.
constexpr unsigned charge_size_pages(unsigned nr_cpus) {
    return 4 * ((nr_cpus >> 5) + 1);
}

struct ResMemcgConfig {
    bool swap_account = false; // do_swap_account: charge memsw as well
    bool use_hierarchy = false;
    unsigned depth = 2;                         // levels with use_hierarchy, the root included
    std::uint64_t limit_bytes = kResCounterMax; // of the memcg the tasks run in
    SpinlockKind lock = SpinlockKind::ticket;
};

// The memcg the tasks run in and, with use_hierarchy, its ancestors.
class ResMemcgHierarchy {
public:
    ResMemcgHierarchy(ObjectRegistry& registry, LockClass& lock_class, const ResMemcgConfig& c);

    ResCounter& res() { return *res_.back(); }
    ResCounter* memsw() { return memsw_.empty() ? nullptr : memsw_.back().get(); }
    ProbedObject& css() { return *css_; }
    ResCounter& top_res() { return *res_.front(); } // the root with use_hierarchy, else res()

private:
    std::unique_ptr<ProbedObject> css_;
    std::vector<std::unique_ptr<ResCounter>> res_;   // top first
    std::vector<std::unique_ptr<ResCounter>> memsw_; // top first
};

struct ResChargeCounters {
    std::uint64_t precharge_hits = 0;    // pages served from the precharge
    std::uint64_t counter_charges = 0;   // successful res_counter_charge calls on res
    std::uint64_t counter_uncharges = 0; // res_counter_uncharge calls on res
    std::uint64_t batched_pages = 0;     // pages uncharged inside an uncharge batch
    std::uint64_t charge_refusals = 0;   // res_counter_charge calls refused at a limit
    std::uint64_t page_failures = 0;     // pages that could not be charged at all
};

class ResPageCharger {
public:
    // precharge_pages 0 or 1: every page is charged alone (2.6.31). batch_uncharges: the
    // 2.6.33 uncharge batching between uncharge_start() and uncharge_end().
    ResPageCharger(ResMemcgHierarchy& memcg, unsigned precharge_pages, bool batch_uncharges,
                   ResChargeCounters& counters);

    bool charge_page();   // mem_cgroup_try_charge() of one page
    void uncharge_page(); // the uncharge of one page
    void uncharge_start();
    void uncharge_end();
    // Gives the precharge back (outside the measured operations: the mail never drains).
    void drain();

    unsigned precharged_pages() const { return precharged_; }

private:
    bool charge_counters(std::uint64_t bytes);
    void uncharge_counters(std::uint64_t bytes);

    ResMemcgHierarchy& memcg_;
    unsigned precharge_pages_;
    bool batch_uncharges_;
    ResChargeCounters& counters_;
    unsigned precharged_ = 0;
    bool in_batch_ = false;
    std::uint64_t batch_bytes_ = 0;
};

} // namespace hitmap::engine
