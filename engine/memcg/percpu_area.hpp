#pragma once
// Per-CPU memory as the kernel's percpu allocator lays it out (mm/percpu.c): one unit per
// possible CPU, and every allocation at the same offset in each unit, so CPU c's copy of an
// allocation is unit(c) + offset. The possible-CPU count is the model's own, independent of the
// host: seed 002 summed 256 CPUs' counters, and that walk is what it measured.
//
// Values are 8-byte counters at byte offsets. In a simulation every access goes to the
// simulator as per-CPU memory (Simulation::access_percpu), priced by the machine's caches;
// software c2c on real threads leaves them out, and the host's own caches price them.
#include "engine/probe/site.hpp"
#include "engine/probe/trace_record.hpp"
#include "engine/runtime/simulation.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace hitmap::engine {

class PercpuArea {
public:
    explicit PercpuArea(unsigned possible_cpus);
    PercpuArea(const PercpuArea&) = delete;
    PercpuArea& operator=(const PercpuArea&) = delete;

    unsigned possible_cpus() const { return possible_cpus_; }
    // Reserves `bytes` in every unit, aligned to `align` (a power of two, at most 64); returns
    // the offset. Only before commit().
    std::uint32_t alloc(std::uint32_t bytes, std::uint32_t align = 8);
    // Makes the units, zeroed; each is its own allocation, as units are apart in memory.
    void commit();
    std::uint32_t unit_bytes() const { return unit_bytes_; }

    // per_cpu(x, cpu): `overlapped` when nothing waits for the value before the next access.
    template <bool Traced = true>
    std::int64_t load(unsigned cpu, std::uint32_t offset, Site site,
                      bool overlapped = false) const {
        record<Traced>(cpu, offset, AccessKind::load, site, overlapped);
        return ref(cpu, offset).load(std::memory_order_relaxed);
    }
    template <bool Traced = true>
    void store(unsigned cpu, std::uint32_t offset, std::int64_t v, Site site) {
        record<Traced>(cpu, offset, AccessKind::store, site, false);
        ref(cpu, offset).store(v, std::memory_order_relaxed);
    }
    // __this_cpu_add_return(): only `cpu` itself adds, so a plain load and store.
    template <bool Traced = true>
    std::int64_t add(unsigned cpu, std::uint32_t offset, std::int64_t delta, Site site) {
        record<Traced>(cpu, offset, AccessKind::rmw, site, false);
        const std::int64_t now = ref(cpu, offset).load(std::memory_order_relaxed) + delta;
        ref(cpu, offset).store(now, std::memory_order_relaxed);
        return now;
    }
    // for_each_possible_cpu(cpu) f(cpu): as the kernel walks cpu_possible_mask, one out-of-line
    // find_next_bit() per CPU (include/linux/cpumask.h, lib/find_bit.c), so the walk's own
    // instructions are in what a calibration measures beside the loads.
    template <typename F> void for_each_possible(F&& f) const {
        for (unsigned c = find_next_possible(0); c < possible_cpus_; c = find_next_possible(c + 1))
            f(c);
    }
    // Untraced, for checks outside the measured region.
    std::int64_t peek(unsigned cpu, std::uint32_t offset) const {
        return ref(cpu, offset).load(std::memory_order_relaxed);
    }

private:
    unsigned find_next_possible(unsigned from) const;
    template <bool Traced>
    void record([[maybe_unused]] unsigned cpu, [[maybe_unused]] std::uint32_t offset,
                [[maybe_unused]] AccessKind kind, [[maybe_unused]] Site site,
                [[maybe_unused]] bool overlapped) const {
#if HITMAP_PROBES
        if constexpr (Traced) {
            if (Simulation* sim = current_simulation()) [[unlikely]]
                sim->access_percpu(cpu, offset, kind, static_cast<std::uint16_t>(site), overlapped);
        }
#endif
    }
    std::atomic_ref<std::int64_t> ref(unsigned cpu, std::uint32_t offset) const {
        return std::atomic_ref<std::int64_t>(units_[cpu][offset / sizeof(std::int64_t)]);
    }

    unsigned possible_cpus_;
    std::vector<std::uint64_t> possible_mask_; // cpu_possible_mask: every bit below the count
    std::uint32_t unit_bytes_ = 0;
    std::vector<std::unique_ptr<std::int64_t[]>> storage_;
    std::vector<std::int64_t*> units_; // line-aligned, inside storage_
};

} // namespace hitmap::engine
