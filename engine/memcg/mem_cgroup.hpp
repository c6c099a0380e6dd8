#pragma once
// A memory cgroup (only what the charge path touches: its memory page_counter) and a
// hierarchy of them under a root, like /sys/fs/cgroup/top/mid/leaf.
#include "engine/memcg/page_counter.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hitmap::engine {

class MemCgroup {
public:
    MemCgroup(ObjectRegistry& registry, std::string path, MemCgroup* parent, const Layout& layout,
              std::uint32_t phase, PageCounterSemantics semantics);

    const std::string& path() const { return path_; }
    MemCgroup* parent() const { return parent_; }
    bool is_root() const { return parent_ == nullptr; }
    PageCounter& memory() { return memory_; }
    const PageCounter& memory() const { return memory_; }

private:
    std::string path_;
    MemCgroup* parent_;
    PageCounter memory_;
};

struct HierarchyConfig {
    unsigned depth = 3;       // levels below the root: top, top/mid, top/mid/leaf, ...
    std::uint32_t phase = 0;  // start offset of each page_counter modulo 64
    std::int64_t top_min = 0; // memory.min / memory.low of the top level, in pages
    std::int64_t top_low = 0;
    std::int64_t leaf_high = kPageCounterMax;
    std::int64_t leaf_max = kPageCounterMax;
};

class MemcgHierarchy {
public:
    MemcgHierarchy(ObjectRegistry& registry, const Layout& layout, PageCounterSemantics semantics,
                   const HierarchyConfig& config);

    MemCgroup& root() { return *levels_.front(); }
    MemCgroup& leaf() { return *levels_.back(); }
    const std::vector<std::unique_ptr<MemCgroup>>& levels() const { return levels_; }

private:
    std::vector<std::unique_ptr<MemCgroup>> levels_;
};

} // namespace hitmap::engine
