#pragma once
// Two layouts of one struct side by side (built-in, file or BTF): each engine field's offset
// and cache line in both, which fields moved to another line, and which left or joined the line
// of the field every charge read-modify-writes (page_counter's usage, mem_cgroup's
// memory.usage): the false sharing a layout change adds or removes.
#include "engine/layout/layout.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::btf {

struct FieldChange {
    std::string field;
    std::optional<engine::FieldPlacement> a, b; // nullopt: not in that layout
};

// The fields sharing the hot field's line in each layout (line = offset / 64 from offset 0).
struct HotLine {
    std::string field;
    std::uint64_t a_line = 0, b_line = 0;
    std::vector<std::string> a_sharers, b_sharers;
    std::vector<std::string> left;   // shared it in A, not in B
    std::vector<std::string> joined; // shared it in B, not in A
};

struct LayoutDiff {
    const engine::Layout* a = nullptr;
    const engine::Layout* b = nullptr;
    std::vector<FieldChange> fields; // every field either layout places, in the type's order
    std::vector<HotLine> hot;        // empty when the struct has no charged field in both

    static std::uint64_t line_of(const engine::FieldPlacement& p);
    static bool moved(const FieldChange& c); // placed in both, on different lines
};

// Both must be layouts of the same struct type (throws engine::LayoutError); the diff points at
// them.
LayoutDiff diff_layouts(const engine::Layout& a, const engine::Layout& b);

std::string format_diff_text(const LayoutDiff& diff);
nlohmann::ordered_json diff_json(const LayoutDiff& diff);

} // namespace hitmap::btf
