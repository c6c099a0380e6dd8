#include "engine/memcg/res_counter.hpp"

namespace hitmap::engine {

ResCounter::ResCounter(LockClass& lock_class, ResCounter* parent, std::uint64_t limit)
    : limit_(limit)
    , lock_(lock_class)
    , parent_(parent) {}

bool ResCounter::charge_locked(std::uint64_t bytes) {
    if (usage_ + bytes > limit_ || usage_ + bytes < usage_) {
        ++failcnt_;
        return false;
    }
    usage_ += bytes;
    if (usage_ > max_usage_)
        max_usage_ = usage_;
    return true;
}

void ResCounter::uncharge_locked(std::uint64_t bytes) {
    // The kernel WARNs here and clamps: an unbalanced uncharge must not wrap usage.
    usage_ = usage_ < bytes ? 0 : usage_ - bytes;
}

bool ResCounter::charge(std::uint64_t bytes, ResCounter** limit_fail_at) {
    ResCounter* failed = nullptr;
    for (ResCounter* c = this; c; c = c->parent_) {
        c->lock_.lock();
        const bool ok = c->charge_locked(bytes);
        c->lock_.unlock();
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
        c->lock_.lock();
        c->uncharge_locked(bytes);
        c->lock_.unlock();
    }
    return false;
}

void ResCounter::uncharge(std::uint64_t bytes) {
    for (ResCounter* c = this; c; c = c->parent_) {
        c->lock_.lock();
        c->uncharge_locked(bytes);
        c->lock_.unlock();
    }
}

} // namespace hitmap::engine
