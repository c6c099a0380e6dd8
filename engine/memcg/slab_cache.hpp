#pragma once
// A small SLUB-like kmalloc cache: each CPU allocates from slabs it owns (the owner's freelist
// is its own, as SLUB's per-CPU freelist is), and a free from another CPU goes onto the slab's
// page freelist with a cmpxchg on struct page, which the owner takes back in one exchange when
// its own list runs dry (___slab_alloc's get_freelist). Each slab has its struct page and its
// vector of obj_cgroup pointers (memcg_data), both probed; object payloads are not modelled.
//
// A slab object is (slab, index). The pool is fixed when the cache is built: a workload sizes
// it above the objects it can have in flight, so an allocation always finds a free object.
#include "engine/layout/kmem_layouts.hpp"
#include "engine/probe/probed_object.hpp"

#include <atomic>
#include <memory>
#include <vector>

namespace hitmap::engine {

class Slab {
public:
    // `objects` per slab: 8 (kmalloc-4k) or 128 (kmalloc-32), the vector layouts' sizes.
    Slab(ObjectRegistry& registry, std::string name, unsigned objects, unsigned owner);

    unsigned objects() const { return objects_; }
    unsigned owner() const { return owner_; }
    ProbedObject& page() { return page_; }
    ProbedObject& objcgs() { return objcgs_; }

private:
    friend class SlabCpu;
    unsigned objects_;
    unsigned owner_;
    ProbedObject page_;
    ProbedObject objcgs_;
    std::vector<std::uint32_t> local_;                   // the owner's freelist
    std::unique_ptr<std::atomic<std::uint32_t>[]> next_; // links of the page freelist
};

struct SlabObject {
    Slab* slab = nullptr;
    std::uint32_t index = 0;
};

// One CPU's slabs of one cache (kmem_cache_cpu and its partial slabs).
class SlabCpu {
public:
    SlabCpu(ObjectRegistry& registry, std::string name, unsigned cpu, unsigned slabs,
            unsigned objects_per_slab);

    unsigned cpu() const { return cpu_; }
    // slab_alloc(): the owner's freelist, else the current slab's page freelist, else the next
    // slab's. Throws WorkloadError if every slab is empty, which a sized pool never sees.
    template <bool Traced = true> SlabObject alloc();
    // kfree()'s part after the memcg hook: the page's flags and cache are read; the current
    // slab's owner frees to its own list, anyone else cmpxchgs the page freelist (__slab_free).
    template <bool Traced = true> void free(SlabObject object);

private:
    template <bool Traced> bool take_remote(Slab& slab);

    unsigned cpu_;
    std::vector<std::unique_ptr<Slab>> slabs_;
    std::size_t current_ = 0;
};

} // namespace hitmap::engine
