#pragma once
// A BTF layout as the engine's layout of one of its struct types: each engine field at the
// offset of the BTF member it stands for. Most engine fields are named by their member's path;
// the few that stand for one word of a larger member say which (btf_member_path).
#include "collector/btf/struct_layout.hpp"
#include "engine/layout/layout.hpp"

#include <string>
#include <vector>

namespace hitmap::btf {

// The BTF member path an engine field stands for, as its struct type declares
// (StructType::btf_members); most fields are their own path.
std::string btf_member_path(const engine::StructType& type, engine::FieldId field);

// The engine's fields placed where the BTF puts them, with what could not be placed.
struct FieldMapping {
    engine::Layout layout;               // fields the BTF lacks are absent
    std::vector<std::string> missing;    // engine fields with no BTF member
    std::vector<std::string> mismatched; // "nr_bytes: 8 bytes in BTF, 4 in the engine"
    std::vector<std::string> required;   // of `missing`, those every built-in layout has
};
FieldMapping map_fields(const StructLayout& btf, const engine::StructType& type);

// The layout the engine runs under. Throws engine::LayoutError, listing every field, when the
// BTF lacks a field that every built-in layout of the type has (the engine's code reaches it
// in every variant; a field only some versions have is left absent, and a variant that needs
// it refuses to start), when a member's size or kind differs from the engine's field (its
// fields are atomics of a fixed size), or when validate_layout refuses the result.
engine::Layout to_engine_layout(const StructLayout& btf, const engine::StructType& type);

} // namespace hitmap::btf
