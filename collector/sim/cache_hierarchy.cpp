#include "collector/sim/cache_hierarchy.hpp"

#include "engine/runtime/splitmix64.hpp"

#include <algorithm>

namespace hitmap::sim {

namespace {

constexpr unsigned kL1Ways = 8, kL2Ways = 8, kLlcWays = 16;

} // namespace

class CacheHierarchy::SetAssociative {
public:
    SetAssociative(std::uint64_t bytes, unsigned line_size, unsigned ways, bool page_indexed,
                   unsigned lines_per_page)
        : ways_(ways)
        , sets_(std::max<std::uint64_t>(1, bytes / line_size / ways))
        , page_indexed_(page_indexed)
        , lines_per_page_(lines_per_page)
        , tags_(sets_ * ways, 0)
        , used_(sets_ * ways, 0) {}

    // True on a hit; on a miss the line replaces the least recently used way of its set.
    bool touch(std::uint64_t line) {
        const std::size_t base = set_of(line) * ways_;
        const std::uint64_t tag = line + 1; // 0 marks an empty way
        std::size_t victim = base;
        for (std::size_t w = base; w < base + ways_; ++w) {
            if (tags_[w] == tag) {
                used_[w] = ++clock_;
                return true;
            }
            if (used_[w] < used_[victim])
                victim = w;
        }
        tags_[victim] = tag;
        used_[victim] = ++clock_;
        return false;
    }
    void drop(std::uint64_t line) {
        const std::size_t base = set_of(line) * ways_;
        for (std::size_t w = base; w < base + ways_; ++w)
            if (tags_[w] == line + 1) {
                tags_[w] = 0;
                used_[w] = 0;
            }
    }

private:
    std::size_t set_of(std::uint64_t line) const {
        if (page_indexed_)
            return (line % lines_per_page_) % sets_;
        // Mixed, so that consecutive pages scatter over the sets.
        return engine::splitmix64_mix(line) % sets_;
    }

    unsigned ways_;
    std::uint64_t sets_;
    bool page_indexed_;
    unsigned lines_per_page_;
    std::vector<std::uint64_t> tags_;
    std::vector<std::uint64_t> used_;
    std::uint64_t clock_ = 0;
};

CacheHierarchy::CacheHierarchy(const MachineDescription& machine)
    : machine_(machine) {
    l1_.resize(std::size_t{machine.sockets} * machine.cores_per_socket);
    l2_.resize(l1_.size());
    llc_.resize(std::size_t{machine.sockets} * machine.llc_groups_per_socket);
}

CacheHierarchy::~CacheHierarchy() = default;

namespace {

// The cache in `slot`, made on first use.
template <typename Cache>
Cache& made(std::unique_ptr<Cache>& slot, std::uint64_t kib, unsigned line_size, unsigned ways,
            bool page_indexed) {
    if (!slot)
        slot = std::make_unique<Cache>(kib << 10, line_size, ways, page_indexed,
                                       page_indexed ? 4096 / line_size : 0);
    return *slot;
}

} // namespace

CacheHierarchy::SetAssociative& CacheHierarchy::l1(unsigned cpu) {
    const CpuPlace p = place_of(machine_, cpu);
    return made(l1_[std::size_t{p.socket} * machine_.cores_per_socket + p.core],
                machine_.caches->l1d_kib, machine_.line_size, kL1Ways, true);
}

CacheHierarchy::SetAssociative& CacheHierarchy::l2(unsigned cpu) {
    const CpuPlace p = place_of(machine_, cpu);
    return made(l2_[std::size_t{p.socket} * machine_.cores_per_socket + p.core],
                machine_.caches->l2_kib, machine_.line_size, kL2Ways, false);
}

CacheHierarchy::SetAssociative& CacheHierarchy::llc(unsigned cpu) {
    const CpuPlace p = place_of(machine_, cpu);
    return made(llc_[std::size_t{p.socket} * machine_.llc_groups_per_socket + p.llc_group],
                machine_.caches->llc_kib, machine_.line_size, kLlcWays, false);
}

CacheLevel CacheHierarchy::access(unsigned cpu, std::uint64_t line) {
    // Every level is touched, so an inclusive fill leaves the line in all of them.
    const bool in_l1 = l1(cpu).touch(line);
    const bool in_l2 = l2(cpu).touch(line);
    const bool in_llc = llc(cpu).touch(line);
    if (in_l1)
        return CacheLevel::l1;
    if (in_l2)
        return CacheLevel::l2;
    return in_llc ? CacheLevel::llc : CacheLevel::memory;
}

void CacheHierarchy::invalidate(unsigned cpu, std::uint64_t line) {
    l1(cpu).drop(line);
    l2(cpu).drop(line);
}

} // namespace hitmap::sim
