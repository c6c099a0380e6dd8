#pragma once
// A memory cgroup as a probed struct mem_cgroup (engine/layout/mem_cgroup_layout.hpp): its
// memory and swap page_counters embedded at the layout's offsets, the css fields the charge
// paths read, and a hierarchy of them under a root, like /sys/fs/cgroup/top/mid/leaf.
#include "engine/layout/mem_cgroup_layout.hpp"
#include "engine/memcg/page_counter.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hitmap::engine {

class MemCgroup : public ProbedObject {
public:
    // The object is named by its path ("top/mid/leaf"; the root is "root"). Throws LayoutError
    // if the layout is not of struct mem_cgroup or lacks a field the charge code uses.
    MemCgroup(ObjectRegistry& registry, std::string path, MemCgroup* parent, const Layout& layout,
              std::uint32_t phase, PageCounterSemantics semantics);

    const std::string& path() const { return path_; }
    MemCgroup* parent() const { return parent_; }
    bool is_root() const { return parent_ == nullptr; }
    PageCounter& memory() { return memory_; }
    const PageCounter& memory() const { return memory_; }
    PageCounter& swap() { return swap_; }
    const PageCounter& swap() const { return swap_; }
    // memcg->kmem, the cgroup v1 kernel-memory counter: present when the layout places it.
    // Always linked to the parent's (v5.11+), so a charge reaches the root's.
    PageCounter* kmem() { return kmem_.get(); }

    // parent_mem_cgroup(): reads css.parent, as every hierarchy walk of the kernel does.
    template <bool Traced = true> MemCgroup* parent_probed(Site site) const {
        return reinterpret_cast<MemCgroup*>(
            static_cast<std::uintptr_t>(load<Traced>(mcg::css_parent, site)));
    }

    // mem_cgroup_under_socket_pressure() (include/linux/memcontrol.h, cgroup v2): every level
    // up to the root reads socket_pressure (a jiffies deadline; the model never sets one, so
    // the walk always goes to the root) and css.parent.
    template <bool Traced = true> bool under_socket_pressure() const {
        for (const MemCgroup* m = this; m; m = m->parent_probed<Traced>(Site::socket_pressure))
            if (m->load<Traced>(mcg::socket_pressure, Site::socket_pressure) != 0)
                return true;
        return false;
    }

private:
    std::string path_;
    MemCgroup* parent_;
    PageCounter memory_;
    PageCounter swap_;
    std::unique_ptr<PageCounter> kmem_;
};

struct HierarchyConfig {
    unsigned depth = 3;       // levels below the root: top, top/mid, top/mid/leaf, ...
    std::uint32_t phase = 0;  // start offset of each struct mem_cgroup modulo 64
    std::int64_t top_min = 0; // memory.min / memory.low of the top level, in pages
    std::int64_t top_low = 0;
    std::int64_t leaf_high = kPageCounterMax;
    std::int64_t leaf_max = kPageCounterMax;
};

class MemcgHierarchy {
public:
    // `layout` is a struct mem_cgroup layout (compose_mem_cgroup, or a user file).
    MemcgHierarchy(ObjectRegistry& registry, const Layout& layout, PageCounterSemantics semantics,
                   const HierarchyConfig& config);

    MemCgroup& root() { return *levels_.front(); }
    MemCgroup& leaf() { return *leaf_; }
    // Every memcg: the root first, then each branch from its top down.
    const std::vector<std::unique_ptr<MemCgroup>>& levels() const { return levels_; }
    // Another branch beside the first under the same root, with the same depth and limits, its
    // top level named `top` (e.g. "top2"); returns its leaf.
    MemCgroup& add_branch(const std::string& top);

private:
    MemCgroup& grow_branch(const std::string& top);

    ObjectRegistry& registry_;
    Layout layout_;
    PageCounterSemantics semantics_;
    HierarchyConfig config_;
    std::vector<std::unique_ptr<MemCgroup>> levels_;
    MemCgroup* leaf_ = nullptr;
};

} // namespace hitmap::engine
