#pragma once
// Composition: a struct type (the *container*) that embeds another struct type of the registry
// (its *member*) at one or more paths, laid out as the compiler lays the struct out: a version's
// member list (its *shape*) with the member's layout placed at each embedding. So a member
// layout can be tried inside a container's version ("patch 2 alone"), and the rest of the
// container moves as it would. A member may itself be a container: composition nests to any
// depth. The engine registers its own compositions (mem_cgroup_layout.hpp) through the same
// registry a plugin uses.
#include "engine/layout/layout.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hitmap::engine {

// One member of the container in declaration order: a run of fields the model does not probe
// (only their size and alignment matter), a block whose fields sit at offsets within it, an
// embedding of the member type, or a line padding (CACHELINE_PADDING(): the next member starts
// on a new line).
struct ShapeMember {
    enum Kind { block, embedded, line_padding } kind = block;
    std::string_view what; // the kernel's members this stands for
    std::uint32_t size = 0;
    std::uint32_t align = 8;
    std::vector<std::pair<FieldId, std::uint32_t>> fields = {}; // container field, offset
    unsigned path = 0; // an embedding: index into Composition::paths
};

struct Shape {
    std::string version;        // "v6.0"
    std::string member_version; // the member layout this version was released with
    std::vector<ShapeMember> members;
};

// The container's fields "<path>.<member field>" of each path, in path order and the member's
// field order, start at container field `first_field`.
struct Composition {
    const StructType* container = nullptr;
    const StructType* member = nullptr;
    std::vector<std::string> paths; // "memory", "swap", ...: one per embedded copy, struct order
    FieldId first_field = 0;
    std::vector<Shape> shapes;
};

// Registers a composition; returns the stored one, which lives until the process exits. Throws
// LayoutError when the container is composed already or its fields are not the member's under
// each path. Call before any run starts, as plugins are loaded (layout_registry.hpp).
const Composition& add_composition(Composition composition);
// The composition of `container`; null when it embeds no struct type.
const Composition* composition_of(const StructType& container);
// The compositions that embed `member` directly, in the order they were added.
std::vector<const Composition*> containers_of(const StructType& member);

// The container field of `member_field` in the copy at path `path`, and its inverse (nullopt
// for the container's own fields).
struct MemberField {
    unsigned copy = 0; // which embedded copy, in struct order
    FieldId field = 0; // the field in the member's type
};
FieldId container_field(const Composition& c, unsigned path, FieldId member_field);
std::optional<MemberField> member_field(const Composition& c, FieldId container_field);

// The compositions from `container` down to `member`, outermost first; empty when `container`
// does not embed `member` at any depth.
std::vector<const Composition*> embedding_chain(const StructType& container,
                                                const StructType& member);
// How many copies of `member` a `container` holds at any depth (0 when none).
unsigned embedded_copies(const StructType& container, const StructType& member);
// Which copy of `member` (numbered in struct order, outer paths first) and which of its fields a
// container field is, at any depth; nullopt for fields outside every copy.
std::optional<MemberField> embedded_field(const StructType& container, const StructType& member,
                                          FieldId field);

// The container of `c` in shape `shape` with `member` placed at every path. The version reads
// "v6.0" when the member is the shape's own, else "v6.0 with MEMBER VERSION". Throws LayoutError
// for an unknown shape or a member layout of another struct.
Layout compose(const Composition& c, std::string_view shape, const Layout& member);
// The shape a composed layout came from (its version names it); nullopt for a user layout or a
// type that is not composed. A user layout should not take a built-in version name as its own.
std::optional<std::string> shape_of(const Layout& container);

// The layout of `member` a composed `container` holds, at any depth: the shape's own, a known
// layout its version names ("v6.0 with page_counter v6.1"), or one recovered from the offsets of
// the first two copies (a user layout). Throws LayoutError when there is none.
Layout embedded_layout(const Layout& container, const StructType& member);
// Whether `container` holds `member` at every copy: the fields of each copy sit where composing
// `member` into the container's shape puts them (the rest of the container is the shape's, as
// the run's build had it).
bool holds_member_layout(const Layout& container, const Layout& member);

// The layout `recorded` is replayed or run under, given --layout overrides (struct name ->
// layout): its own struct's override; for a composed layout, an override of its member type
// recomposed into its shape; otherwise nullopt (keep the recorded layout). Throws LayoutError
// when both the container's and the member's layouts are given, or a member override meets a
// user container layout that has no shape to place it in.
template <typename Overrides>
std::optional<Layout> layout_under(const Layout& recorded, const Overrides& overrides);

// Non-template core of layout_under, on the two lookups it needs.
std::optional<Layout> layout_under(const Layout& recorded, const Layout* own_override,
                                   const Layout* member_override);

template <typename Overrides>
std::optional<Layout> layout_under(const Layout& recorded, const Overrides& overrides) {
    const auto find = [&](std::string_view name) -> const Layout* {
        const auto it = overrides.find(std::string(name));
        return it == overrides.end() ? nullptr : &it->second;
    };
    const Composition* c = composition_of(*recorded.type);
    return layout_under(recorded, find(recorded.type->name), c ? find(c->member->name) : nullptr);
}

} // namespace hitmap::engine
