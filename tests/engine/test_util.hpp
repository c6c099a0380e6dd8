#pragma once
// Helpers shared by the engine tests: the three page_counter versions the workload compares,
// and a root/top/mid/leaf chain of bare PageCounters.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/memcg/page_counter.hpp"

#include <array>
#include <memory>
#include <ostream>
#include <string>

namespace hitmap::engine::testing {

struct PcVersion {
    const char* name; // layout version
    PageCounterSemantics semantics;
    const Layout& layout() const { return *find_builtin_layout("page_counter", name); }
    // struct mem_cgroup of the same version, around this page_counter.
    const Layout& memcg_layout() const { return *find_builtin_layout("mem_cgroup", name); }
};

inline std::ostream& operator<<(std::ostream& os, const PcVersion& v) {
    return os << v.name;
}

inline const std::array<PcVersion, 3>& pc_versions() {
    static const std::array<PcVersion, 3> all{
        PcVersion{"v6.0", {ProtectionPropagation::always_exchange, false}},
        PcVersion{"v6.1", {ProtectionPropagation::on_change, false}},
        PcVersion{"v6.15", {ProtectionPropagation::on_change, true}},
    };
    return all;
}

inline std::string version_test_name(const std::string& name) {
    std::string out;
    for (char c : name)
        out += (c == '.') ? '_' : c;
    return out;
}

// root <- top <- mid <- leaf, all with the defaults of the PageCounter constructor
// (max = high = PAGE_COUNTER_MAX, min = low = 0, protection_support and track_failcnt on).
struct Chain {
    explicit Chain(const PcVersion& v)
        : root(registry, "root", v.layout(), 0, nullptr, v.semantics)
        , top(registry, "top", v.layout(), 0, &root, v.semantics)
        , mid(registry, "mid", v.layout(), 0, &top, v.semantics)
        , leaf(registry, "leaf", v.layout(), 0, &mid, v.semantics) {}

    std::array<PageCounter*, 4> levels() { return {&leaf, &mid, &top, &root}; }

    ObjectRegistry registry;
    PageCounter root, top, mid, leaf;
};

} // namespace hitmap::engine::testing
