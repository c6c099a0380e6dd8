#include "engine/memcg/res_counter.hpp"

namespace hitmap::engine {

namespace {

std::variant<TicketSpinlock, Spinlock> make_lock(LockClass& lock_class, SpinlockKind kind) {
    if (kind == SpinlockKind::ticket)
        return std::variant<TicketSpinlock, Spinlock>(std::in_place_index<0>, lock_class);
    return std::variant<TicketSpinlock, Spinlock>(std::in_place_index<1>, lock_class);
}

} // namespace

ResCounter::ResCounter(ObjectRegistry& registry, std::string name, LockClass& lock_class,
                       ResCounter* parent, std::uint64_t limit, SpinlockKind lock)
    : ProbedObject(registry, std::move(name), *find_builtin_layout("res_counter", "v2.6.31"), 0)
    , lock_(make_lock(lock_class, lock))
    , parent_(parent) {
    poke(rc::limit, limit);
    poke(rc::parent, reinterpret_cast<std::uintptr_t>(parent));
    std::visit([&](auto& l) { l.bind_word(*this, rc::lock); }, lock_);
}

// The call site is the caller's (res_counter_charge or _uncharge), as lock_stat reports it.
void ResCounter::lock(Site site, std::source_location where) {
    std::visit([&](auto& l) { l.lock(site, where); }, lock_);
}

void ResCounter::unlock(Site site) {
    std::visit([&](auto& l) { l.unlock(site); }, lock_);
}

bool ResCounter::charge_locked(std::uint64_t bytes) {
    const Site site = Site::res_counter_charge;
    const std::uint64_t usage = load(rc::usage, site);
    if (usage + bytes > load(rc::limit, site) || usage + bytes < usage) {
        store(rc::failcnt, load(rc::failcnt, site) + 1, site);
        return false;
    }
    store(rc::usage, usage + bytes, site);
    if (usage + bytes > load(rc::max_usage, site))
        store(rc::max_usage, usage + bytes, site);
    return true;
}

void ResCounter::uncharge_locked(std::uint64_t bytes) {
    const Site site = Site::res_counter_uncharge;
    // The kernel WARNs here and clamps: an unbalanced uncharge must not wrap usage.
    const std::uint64_t usage = load(rc::usage, site);
    store(rc::usage, usage < bytes ? 0 : usage - bytes, site);
}

bool ResCounter::charge(std::uint64_t bytes, ResCounter** limit_fail_at) {
    const Site site = Site::res_counter_charge;
    ResCounter* failed = nullptr;
    for (ResCounter* c = this; c; c = reinterpret_cast<ResCounter*>(c->load(rc::parent, site))) {
        c->lock(site, std::source_location::current());
        const bool ok = c->charge_locked(bytes);
        c->unlock(site);
        if (!ok) {
            failed = c;
            break;
        }
    }
    if (!failed)
        return true;
    if (limit_fail_at)
        *limit_fail_at = failed;
    // undo: the levels below the refusing one give the charge back.
    for (ResCounter* c = this; c != failed; c = c->parent_) {
        c->lock(site, std::source_location::current());
        c->uncharge_locked(bytes);
        c->unlock(site);
    }
    return false;
}

void ResCounter::uncharge(std::uint64_t bytes) {
    const Site site = Site::res_counter_uncharge;
    for (ResCounter* c = this; c; c = reinterpret_cast<ResCounter*>(c->load(rc::parent, site))) {
        c->lock(site, std::source_location::current());
        c->uncharge_locked(bytes);
        c->unlock(site);
    }
}

} // namespace hitmap::engine
