#pragma once
// Two layouts of one struct side by side (built-in, file or BTF): each field's offset and cache
// line in both, which fields moved to another line, and which left or joined the line of the
// field every charge read-modify-writes (is_charged_usage): the false sharing a layout change
// adds or removes. Any struct of any BTF is diffed by its members' dotted paths, the engine's
// structs by their engine fields.
#include "collector/btf/struct_layout.hpp"
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

// What the diff says of each side: the version, where it came from and its size.
struct DiffSide {
    std::string version;
    std::string origin; // empty when unknown
    std::uint32_t size = 0;
    std::uint32_t align = 0;
};

struct LayoutDiff {
    std::string struct_name;
    DiffSide a, b;
    std::vector<FieldChange> fields; // every field either layout places, in the type's order
    std::vector<HotLine> hot;        // empty when the struct has no charged field in both

    static std::uint64_t line_of(const engine::FieldPlacement& p);
    static bool moved(const FieldChange& c); // placed in both, on different lines
};

// Both must be layouts of the same struct type (throws engine::LayoutError).
LayoutDiff diff_layouts(const engine::Layout& a, const engine::Layout& b);
// Any struct as BTF (or its JSON) lays it out: every member with bytes of its own (fields and
// bitfields, by dotted path; a bitfield at the bytes holding it), A's order first, then the
// members only B has. Both must name the same struct (throws engine::LayoutError).
LayoutDiff diff_layouts(const StructLayout& a, const StructLayout& b);

std::string format_diff_text(const LayoutDiff& diff);
nlohmann::ordered_json diff_json(const LayoutDiff& diff);

} // namespace hitmap::btf
