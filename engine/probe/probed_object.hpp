#pragma once
// Raw, aligned storage for one modelled kernel object, reached by field offset through
// probes. The same charge code therefore runs under any layout of the struct, and every
// access to shared state can be recorded as (object, field, offset, size, kind, site).
//
// Fields are accessed as atomics (relaxed for READ_ONCE/WRITE_ONCE, sequentially consistent
// for the kernel's fully ordered RMW ops), so concurrent access is race-free under TSan.
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"
#include "engine/probe/site.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "engine/runtime/simulation.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace hitmap::engine {

class ProbedObject {
public:
    ProbedObject(ObjectRegistry& registry, std::string name, const Layout& layout,
                 std::uint32_t phase);
    ProbedObject(const ProbedObject&) = delete;
    ProbedObject& operator=(const ProbedObject&) = delete;

    ObjectId id() const { return id_; }
    const Layout& layout() const { return layout_; }
    // Per-CPU state (the stock) is touched by its owner thread only; its records may reuse the
    // thread's last timestamp (TraceBuffer::append).
    void mark_owner_only() { owner_only_ = true; }
    // The address of the object: line-aligned allocation + phase, for tests of the layout.
    const std::byte* address() const { return base_; }

    // Traced = false is the copy of the charge path the workloads run while tracing is off:
    // its probes are compiled out, so an idle probe costs nothing per access (the workload
    // picks the copy once per operation). Traced = true records when a buffer is installed,
    // and hands the access to the simulator when a simulation runs the code.
    template <bool Traced = true> std::uint64_t load(FieldId f, Site site) const {
        record<Traced>(f, AccessKind::load, site);
        return read_raw(f);
    }
    template <bool Traced = true> void store(FieldId f, std::uint64_t v, Site site) {
        record<Traced>(f, AccessKind::store, site);
        write_raw(f, v);
    }
    // Returns the new value, as atomic_long_add_return does.
    template <bool Traced = true>
    std::int64_t add_return(FieldId f, std::int64_t delta, Site site) {
        record<Traced>(f, AccessKind::rmw, site);
        if (log2_size_[f] == 2) { // atomic_t
            const auto d = static_cast<std::uint32_t>(delta);
            return static_cast<std::int32_t>(ref<std::uint32_t>(f).fetch_add(d) + d);
        }
        auto word = ref<std::uint64_t>(f);
        return static_cast<std::int64_t>(word.fetch_add(static_cast<std::uint64_t>(delta)) +
                                         static_cast<std::uint64_t>(delta));
    }
    // __this_cpu_add(): a read-modify-write without the lock prefix, for per-CPU state only its
    // owner touches (mark_owner_only). Recorded as an RMW; natively a plain load and store.
    template <bool Traced = true> std::int64_t add_local(FieldId f, std::int64_t delta, Site site) {
        record<Traced>(f, AccessKind::rmw, site);
        const auto now = static_cast<std::int64_t>(read_raw(f)) + delta;
        write_raw(f, static_cast<std::uint64_t>(now));
        return now;
    }
    template <bool Traced = true> std::uint64_t exchange(FieldId f, std::uint64_t v, Site site) {
        record<Traced>(f, AccessKind::rmw, site);
        if (log2_size_[f] == 2) // atomic_t
            return ref<std::uint32_t>(f).exchange(static_cast<std::uint32_t>(v));
        return ref<std::uint64_t>(f).exchange(v);
    }
    // cmpxchg on a 64-bit field: true and the new value stored when it held `expected`, else
    // false and `expected` updated to what it held.
    template <bool Traced = true>
    bool compare_exchange(FieldId f, std::uint64_t& expected, std::uint64_t desired, Site site) {
        record<Traced>(f, AccessKind::cas, site);
        return ref<std::uint64_t>(f).compare_exchange_strong(expected, desired);
    }

    // Records an access without making it: for state the model keeps outside the object, such
    // as a lock word whose lock is an InstrumentedLock of its own.
    template <bool Traced = true> void touch(FieldId f, AccessKind kind, Site site) const {
        record<Traced>(f, kind, site);
    }

    // A spin-wait on a field whose value this CPU holds: sleeps until another virtual CPU writes
    // its line. Only simulated locks call it.
    void wait_for_write(Simulation& sim, FieldId f) const {
        sim.wait_for_write(id_, f, log2_size_[f], offset_[f]);
    }

    // Untraced access for set-up and checks outside the measured region.
    std::uint64_t peek(FieldId f) const { return read_raw(f); }
    void poke(FieldId f, std::uint64_t v) { write_raw(f, v); }

private:
    template <bool Traced>
    void record([[maybe_unused]] FieldId f, [[maybe_unused]] AccessKind kind,
                [[maybe_unused]] Site site) const {
#if HITMAP_PROBES
        if constexpr (Traced) {
            if (TraceBuffer* buffer = current_trace_buffer()) [[unlikely]]
                buffer->append(id_, f, kind, log2_size_[f], offset_[f],
                               static_cast<std::uint16_t>(site), !owner_only_);
            else if (Simulation* sim = current_simulation()) [[unlikely]]
                sim->access(id_, f, kind, log2_size_[f], offset_[f],
                            static_cast<std::uint16_t>(site));
        }
#endif
    }

    template <typename T> std::atomic_ref<T> ref(FieldId f) const {
        return std::atomic_ref<T>(*reinterpret_cast<T*>(base_ + offset_[f]));
    }
    // Fields are 1, 4 or 8 bytes (validated with the layout).
    std::uint64_t read_raw(FieldId f) const {
        switch (log2_size_[f]) {
        case 0:
            return ref<std::uint8_t>(f).load(std::memory_order_relaxed);
        case 2:
            return ref<std::uint32_t>(f).load(std::memory_order_relaxed);
        default:
            return ref<std::uint64_t>(f).load(std::memory_order_relaxed);
        }
    }
    void write_raw(FieldId f, std::uint64_t v) {
        switch (log2_size_[f]) {
        case 0:
            ref<std::uint8_t>(f).store(static_cast<std::uint8_t>(v), std::memory_order_relaxed);
            break;
        case 2:
            ref<std::uint32_t>(f).store(static_cast<std::uint32_t>(v), std::memory_order_relaxed);
            break;
        default:
            ref<std::uint64_t>(f).store(v, std::memory_order_relaxed);
            break;
        }
    }

    struct FreeStorage {
        void operator()(std::byte* p) const;
    };

    std::unique_ptr<std::byte[], FreeStorage> storage_;
    std::byte* base_ = nullptr;
    ObjectId id_ = 0;
    bool owner_only_ = false;
    Layout layout_;
    // Flat copies of the layout, so a probe costs two array reads, not a vector of optionals.
    // Sized for every FieldId (struct mem_cgroup has 74 fields).
    std::uint16_t offset_[256] = {};
    std::uint8_t log2_size_[256] = {};
};

} // namespace hitmap::engine
