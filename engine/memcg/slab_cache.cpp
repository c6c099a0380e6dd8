#include "engine/memcg/slab_cache.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/runtime/simulation.hpp"
#include "engine/workloads/workload.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

Slab::Slab(ObjectRegistry& registry, std::string name, unsigned objects, unsigned owner)
    : objects_(objects)
    , owner_(owner)
    , page_(registry, name + " page", *find_builtin_layout("page", "v5.11"), 0)
    , objcgs_(registry, name + " objcgs", *find_builtin_layout("objcgs", std::to_string(objects)),
              0)
    , next_(std::make_unique<std::atomic<std::uint32_t>[]>(objects)) {
    // memcg_data = the vector | MEMCG_DATA_OBJCGS, set when the slab was made.
    page_.poke(slab_page::memcg_data, reinterpret_cast<std::uintptr_t>(&objcgs_) | 1);
    for (std::uint32_t i = objects; i > 0; --i)
        local_.push_back(i - 1);
}

SlabCpu::SlabCpu(ObjectRegistry& registry, std::string name, unsigned cpu, unsigned slabs,
                 unsigned objects_per_slab)
    : cpu_(cpu) {
    if (!find_builtin_layout("objcgs", std::to_string(objects_per_slab)))
        throw WorkloadError(
            fmt::format("no slab of {} objects is modelled (8 or 128)", objects_per_slab));
    for (unsigned s = 0; s < slabs; ++s)
        slabs_.push_back(std::make_unique<Slab>(registry, fmt::format("{}/slab{}", name, s),
                                                objects_per_slab, cpu));
}

template <bool Traced> bool SlabCpu::take_remote(Slab& slab) {
    // get_freelist(): the whole page freelist in one exchange; the links are the freed objects'
    // first words, written by the freeing CPUs (payload, not modelled).
    std::uint64_t head = slab.page_.exchange<Traced>(slab_page::freelist, 0, Site::slab_alloc);
    while (head) {
        const auto index = static_cast<std::uint32_t>(head - 1);
        slab.local_.push_back(index);
        head = slab.next_[index].load(std::memory_order_acquire);
    }
    return !slab.local_.empty();
}

template <bool Traced> SlabObject SlabCpu::alloc() {
    for (std::size_t tried = 0;; ++tried) {
        Slab& slab = *slabs_[current_];
        if (!slab.local_.empty()) {
            const std::uint32_t index = slab.local_.back();
            slab.local_.pop_back();
            return {&slab, index};
        }
        if (take_remote<Traced>(slab))
            continue;
        if (tried >= slabs_.size()) {
            // Every object is in flight or half-way through a remote free.
            if (Simulation* sim = current_simulation())
                slab.page_.wait_for_write(*sim, slab_page::freelist);
            else if (tried > 1000 * slabs_.size())
                throw WorkloadError(fmt::format("slab pool of CPU {} exhausted", cpu_));
        }
        current_ = (current_ + 1) % slabs_.size();
    }
}

template <bool Traced> void SlabCpu::free(SlabObject object) {
    Slab& slab = *object.slab;
    const Site site = Site::slab_free;
    slab.page_.load<Traced>(slab_page::flags, site); // PageSlab()
    slab.page_.load<Traced>(slab_page::slab_cache, site);
    if (slab.owner_ == cpu_ && slabs_[current_].get() == &slab) {
        slab.local_.push_back(object.index); // do_slab_free()'s fast path
        return;
    }
    std::uint64_t head = slab.page_.peek(slab_page::freelist);
    do
        slab.next_[object.index].store(static_cast<std::uint32_t>(head), std::memory_order_relaxed);
    while (!slab.page_.compare_exchange<Traced>(slab_page::freelist, head, object.index + 1, site));
}

template SlabObject SlabCpu::alloc<true>();
template SlabObject SlabCpu::alloc<false>();
template void SlabCpu::free<true>(SlabObject);
template void SlabCpu::free<false>(SlabObject);

} // namespace hitmap::engine
