#include "engine/memcg/mem_cgroup.hpp"

#include "engine/layout/layout_error.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

namespace {

const Layout& checked(const Layout& layout) {
    if (layout.type != &mem_cgroup_type())
        throw LayoutError(fmt::format("layout {} is of struct {}, not mem_cgroup", layout.version,
                                      layout.type->name));
    for (const FieldId f : {mcg::css_cgroup, mcg::css_refcnt, mcg::css_parent, mcg::socket_pressure,
                            mcg::vmstats_percpu})
        if (!layout.has(f))
            throw LayoutError(fmt::format("layout {} of mem_cgroup lacks field '{}', which the "
                                          "charge code uses",
                                          layout.version, layout.field_name(f)));
    return layout;
}

} // namespace

MemCgroup::MemCgroup(ObjectRegistry& registry, std::string path, MemCgroup* parent,
                     const Layout& layout, std::uint32_t phase, PageCounterSemantics semantics)
    : ProbedObject(registry, path, checked(layout), phase)
    , path_(std::move(path))
    , parent_(parent)
    , memory_(*this, counter_field(Counter::memory, pc::usage),
              parent ? &parent->memory() : nullptr, semantics)
    , swap_(*this, counter_field(Counter::swap, pc::usage), parent ? &parent->swap() : nullptr,
            semantics) {
    if (layout.has(counter_field(Counter::kmem, pc::usage))) {
        kmem_ = std::make_unique<PageCounter>(*this, counter_field(Counter::kmem, pc::usage),
                                              parent ? parent->kmem() : nullptr, semantics);
        kmem_->set_protection_support(false);
    }
    poke(mcg::css_parent, reinterpret_cast<std::uintptr_t>(parent));
    // The swap counter (memsw on v1) is hierarchical but never tracks protection
    // (page_counter_init(&memcg->swap, &parent->swap, false) in mem_cgroup_css_alloc).
    swap_.set_protection_support(false);
}

MemcgHierarchy::MemcgHierarchy(ObjectRegistry& registry, const Layout& layout,
                               PageCounterSemantics semantics, const HierarchyConfig& config)
    : registry_(registry)
    , layout_(layout)
    , semantics_(semantics)
    , config_(config) {
    levels_.push_back(
        std::make_unique<MemCgroup>(registry, "root", nullptr, layout_, config.phase, semantics));
    // Every memory counter tracks protection on cgroup v2, the root's included
    // (page_counter_init(&memcg->memory, NULL, true) in mainline mem_cgroup_css_alloc).
    // failcnt is tracked only for cgroup v1 since v6.15; the workloads model v2.
    root().memory().set_track_failcnt(false);
    root().swap().set_track_failcnt(false);
    leaf_ = &grow_branch("top");
}

MemCgroup& MemcgHierarchy::add_branch(const std::string& top) {
    return grow_branch(top);
}

MemCgroup& MemcgHierarchy::grow_branch(const std::string& top) {
    static const char* const names[] = {"top", "mid", "leaf"};
    const std::size_t first = levels_.size();
    MemCgroup* parent = &root();
    std::string path;
    for (unsigned level = 0; level < config_.depth; ++level) {
        std::string name = level < 3 && config_.depth <= 3
                               ? names[level == config_.depth - 1 ? 2 : level]
                               : "l" + std::to_string(level + 1);
        if (level == 0 && top != "top")
            name = top;
        path += (path.empty() ? "" : "/") + name;
        levels_.push_back(std::make_unique<MemCgroup>(registry_, path, parent, layout_,
                                                      config_.phase, semantics_));
        parent = levels_.back().get();
        parent->memory().set_track_failcnt(false);
        parent->swap().set_track_failcnt(false);
    }
    if (config_.depth == 0)
        return root();
    MemCgroup& branch_top = *levels_[first];
    const bool top_is_leaf = config_.depth == 1;
    branch_top.memory().set_limits(config_.top_min, config_.top_low,
                                   top_is_leaf ? config_.leaf_high : kPageCounterMax,
                                   top_is_leaf ? config_.leaf_max : kPageCounterMax);
    if (!top_is_leaf)
        parent->memory().set_limits(0, 0, config_.leaf_high, config_.leaf_max);
    return *parent;
}

} // namespace hitmap::engine
