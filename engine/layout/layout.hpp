#pragma once
// Layouts are data: a StructType names the fields (their ids are stable across versions),
// a Layout places each field at an offset for one version of the struct. The engine reaches
// fields by offset, so the same code runs under any layout, including a user-supplied one.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hitmap::engine {

using FieldId = std::uint8_t;

// What a field is to the paths that touch it: metadata a type declares beside its fields, from
// which reports group fields and the C declaration of a layout takes the field's type. A field
// no role is declared for is plain (an integer of its natural size).
enum class FieldRole : std::uint8_t {
    plain,
    hot_counter, // an atomic counter the hot paths read-modify-write (atomic_long_t)
    limit,       // read-mostly: read on every pass of the hot path, written rarely
    lock,        // a lock word (spinlock_t)
    parent,      // a pointer to the parent object, of the same type ("struct TYPE *")
    flag,        // a bool
};

struct StructType {
    std::string name;                  // e.g. "page_counter"
    std::vector<std::string> fields;   // index = FieldId, the same in every layout of the type
    std::vector<FieldRole> roles = {}; // by FieldId; a field past the end is plain
    // Who reads the limit fields, with the source that says so; empty when none is a limit.
    std::string limits_read_by = {};
    // Fields that stand for the first word of a larger member, by the member's path in BTF:
    // {field, member path} ("css.refcnt" is the first word of "css.refcnt.percpu_count_ptr").
    std::vector<std::pair<std::string, std::string>> btf_members = {};

    std::optional<FieldId> field_id(std::string_view field) const;
    FieldRole role(FieldId field) const;
    // The fields of `role`, in FieldId order.
    std::vector<FieldId> fields_with(FieldRole role) const;
};

struct FieldPlacement {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

struct Layout {
    const StructType* type = nullptr;
    std::string version;     // e.g. "v6.0", or the file name of a user layout
    std::uint32_t size = 0;  // sizeof, including tail padding
    std::uint32_t align = 8; // alignment of the whole struct
    std::vector<std::optional<FieldPlacement>>
        placement; // by FieldId; nullopt = not in this version
    // Where it came from: "built-in", "plugin", "file PATH", "BTF PATH ..., xxh3-128 HASH" (a
    // BTF layout is keyed to the BTF's bytes: randstruct kernels differ per build). Empty when
    // unknown: a run's objects read from a database carry the origin the run stored with them,
    // none when stored before schema 10 (schemas/migrations/0010_layout_history.sql).
    std::string origin = {};

    bool has(FieldId f) const { return f < placement.size() && placement[f].has_value(); }
    const FieldPlacement& at(FieldId f) const { return *placement[f]; }
    std::string_view field_name(FieldId f) const { return type->fields[f]; }
};

// Whether two layouts place every field alike (offset and size; version and origin aside).
bool same_placement(const Layout& a, const Layout& b);

} // namespace hitmap::engine
