#pragma once
// A lockdep lock class: every lock initialised for the same purpose shares one, and its
// statistics are kept per slot (per worker thread, standing for lockdep's per CPU) and merged
// by report() into a LockClassReport (reference/lockstat.md §2).
#include "engine/locks/lock_class_report.hpp"
#include "engine/locks/lock_slot.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <vector>

namespace hitmap::engine {

enum class LockKind { spinlock, mutex };

const char* to_string(LockKind kind);

// One lock's contended acquisition, as the waiter saw it.
struct LockContention {
    std::uint64_t wait_ns = 0;
    bool bounce = false;         // the lock was last acquired on another CPU
    std::source_location waiter; // where the waiter called lock(): the contention point
    std::source_location holder; // where the holder had taken it: the contending point
};

class LockClass {
public:
    // `slots`: the LockSlotScope indices that get a private slot; others share the overflow slot.
    LockClass(std::string name, LockKind kind, unsigned slots);
    ~LockClass();
    LockClass(const LockClass&) = delete;
    LockClass& operator=(const LockClass&) = delete;

    const std::string& name() const { return name_; }
    LockKind kind() const { return kind_; }

    // Called by the locks of this class, in the calling thread's slot.
    void record_contention(const LockContention& contention);
    void record_acquisition(bool bounce);
    void record_release(std::uint64_t hold_ns);

    // The slots merged. Call it when no thread is using a lock of this class.
    LockClassReport report() const;

private:
    struct Slot;
    // lockdep's class->contention_point[]: the first four distinct sites claim an entry.
    class PointTable {
    public:
        static constexpr unsigned kPoints = 4;
        // The entry of `site`, claiming a free one; kPoints when all four hold other sites.
        unsigned index_of(const std::source_location& site);
        std::vector<LockSiteCount> counts(const std::vector<std::uint64_t>& per_point) const;

    private:
        std::atomic<std::uint64_t> keys_[kPoints]{};
        std::source_location sites_[kPoints]; // written once by the claimer, read by report()
    };

    template <class Update> void update_slot(Update&& update);

    std::string name_;
    LockKind kind_;
    std::unique_ptr<Slot[]> slots_; // `slot_count_` private slots, then the overflow slot
    unsigned slot_count_;
    std::mutex overflow_mutex_;
    PointTable contention_points_;
    PointTable contending_points_;
};

} // namespace hitmap::engine
