#include "engine/memcg/mem_cgroup.hpp"

namespace hitmap::engine {

MemCgroup::MemCgroup(ObjectRegistry& registry, std::string path, MemCgroup* parent,
                     const Layout& layout, std::uint32_t phase, PageCounterSemantics semantics)
    : path_(std::move(path))
    , parent_(parent)
    , memory_(registry, path_ + (path_.empty() ? "memory" : "/memory"), layout, phase,
              parent ? &parent->memory() : nullptr, semantics) {}

MemcgHierarchy::MemcgHierarchy(ObjectRegistry& registry, const Layout& layout,
                               PageCounterSemantics semantics, const HierarchyConfig& config) {
    static const char* const names[] = {"top", "mid", "leaf"};
    levels_.push_back(
        std::make_unique<MemCgroup>(registry, "root", nullptr, layout, config.phase, semantics));
    std::string path;
    for (unsigned level = 0; level < config.depth; ++level) {
        const std::string name = level < 3 && config.depth <= 3
                                     ? names[level == config.depth - 1 ? 2 : level]
                                     : "l" + std::to_string(level + 1);
        path += (path.empty() ? "" : "/") + name;
        levels_.push_back(std::make_unique<MemCgroup>(registry, path, levels_.back().get(), layout,
                                                      config.phase, semantics));
    }
    // On cgroup v2 only the memory counters of non-root memcgs track protection.
    root().memory().set_protection_support(false);
    // failcnt is tracked only for cgroup v1 since v6.15; the workloads model v2.
    for (auto& level : levels_)
        level->memory().set_track_failcnt(false);
    if (config.depth > 0) {
        const bool top_is_leaf = config.depth == 1;
        levels_[1]->memory().set_limits(config.top_min, config.top_low,
                                        top_is_leaf ? config.leaf_high : kPageCounterMax,
                                        top_is_leaf ? config.leaf_max : kPageCounterMax);
        if (!top_is_leaf)
            leaf().memory().set_limits(0, 0, config.leaf_high, config.leaf_max);
    }
}

} // namespace hitmap::engine
