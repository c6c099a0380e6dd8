#include "engine/layout/composition.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_registry.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>

namespace hitmap::engine {

namespace {

void validate(const Composition& c) {
    if (!c.container || !c.member || c.paths.empty() || c.shapes.empty())
        throw LayoutError("a composition needs a container, a member, paths and shapes");
    const std::size_t n = c.member->fields.size();
    if (c.first_field + c.paths.size() * n > c.container->fields.size())
        throw LayoutError(fmt::format("struct {} has too few fields for {} embedded {}",
                                      c.container->name, c.paths.size(), c.member->name));
    for (unsigned p = 0; p < c.paths.size(); ++p)
        for (FieldId f = 0; f < n; ++f) {
            const std::string& name = c.container->fields[container_field(c, p, f)];
            if (name != fmt::format("{}.{}", c.paths[p], c.member->fields[f]))
                throw LayoutError(fmt::format("struct {}: field '{}' should be {}.{}",
                                              c.container->name, name, c.paths[p],
                                              c.member->fields[f]));
        }
    for (const Shape& s : c.shapes)
        for (const ShapeMember& m : s.members) {
            if (m.kind == ShapeMember::embedded && m.path >= c.paths.size())
                throw LayoutError(
                    fmt::format("struct {} {}: no path {}", c.container->name, s.version, m.path));
            for (const auto& [field, offset] : m.fields)
                if (field >= c.container->fields.size() || member_field(c, field))
                    throw LayoutError(fmt::format("struct {} {}: block '{}' places field {}, "
                                                  "not one of the container's own",
                                                  c.container->name, s.version, m.what, field));
        }
}

// A deque: a composition's address must not move when another is added. The built-ins come
// first, through the same validation as a plugin's.
std::deque<Composition>& compositions() {
    static std::deque<Composition> all = [] {
        std::deque<Composition> builtins{mem_cgroup_composition()};
        for (const Composition& c : builtins)
            validate(c);
        return builtins;
    }();
    return all;
}

const Shape& find_shape(const Composition& c, std::string_view version) {
    for (const Shape& s : c.shapes)
        if (s.version == version)
            return s;
    std::string known;
    for (const Shape& s : c.shapes)
        known += fmt::format("{}{}", known.empty() ? "" : ", ", s.version);
    throw LayoutError(
        fmt::format("no struct {} shape for '{}' (known: {})", c.container->name, version, known));
}

std::uint32_t align_up(std::uint32_t n, std::uint32_t a) {
    return (n + a - 1) / a * a;
}

// " with MEMBER ": what compose() puts between the shape and a member layout that is not the
// shape's own.
std::string with_member(const Composition& c) {
    return fmt::format(" with {} ", c.member->name);
}

// A user member layout recovered from the container it was composed into: its size is the
// distance between the first two copies, its offsets are relative to the first copy's start,
// which depends on its alignment; the alignment is the smallest whose composition gives the
// container back. A container with one copy does not say the member's size: nullopt.
std::optional<Layout> recover_member(const Layout& container, const Composition& c,
                                     std::string_view shape, std::string name) {
    if (c.paths.size() < 2)
        return std::nullopt;
    std::optional<FieldId> anchor;
    for (FieldId f = 0; f < c.member->fields.size() && !anchor; ++f)
        if (container.has(container_field(c, 0, f)) && container.has(container_field(c, 1, f)))
            anchor = f;
    if (!anchor)
        return std::nullopt;
    const FieldPlacement& first = container.at(container_field(c, 0, *anchor));
    const FieldPlacement& second = container.at(container_field(c, 1, *anchor));
    if (second.offset <= first.offset)
        return std::nullopt;
    const std::uint32_t size = second.offset - first.offset;
    for (std::uint32_t align = 8; align <= 4096 && align <= size; align *= 2) {
        if (size % align != 0)
            continue;
        Layout probe{c.member, name, size, align, {}};
        probe.placement.resize(c.member->fields.size());
        probe.placement[*anchor] = FieldPlacement{0, first.size};
        const std::uint32_t base =
            compose(c, shape, probe).at(container_field(c, 0, *anchor)).offset;
        Layout member = probe;
        member.placement.assign(c.member->fields.size(), std::nullopt);
        bool inside = true;
        for (FieldId f = 0; f < c.member->fields.size() && inside; ++f) {
            const FieldId in_container = container_field(c, 0, f);
            if (!container.has(in_container))
                continue;
            const FieldPlacement& p = container.at(in_container);
            inside = p.offset >= base && p.offset + p.size <= base + size;
            if (inside)
                member.placement[f] = FieldPlacement{p.offset - base, p.size};
        }
        if (!inside)
            continue;
        // A smaller alignment can place every field alike and still be wrong: the struct's
        // size and alignment tell (the copies after the first start elsewhere).
        const Layout composed = compose(c, shape, member);
        if (same_placement(composed, container) && composed.size == container.size &&
            composed.align == container.align)
            return member;
    }
    return std::nullopt;
}

// The member layout a container composed by `c` holds (one level down).
Layout member_layout(const Layout& container, const Composition& c) {
    const auto shape = shape_of(container);
    if (!shape)
        throw LayoutError(fmt::format("{} layout '{}' is not a built-in shape: its {}s cannot "
                                      "be laid out anew inside it",
                                      c.container->name, container.version, c.member->name));
    const std::string with = with_member(c);
    const std::string_view version = container.version;
    const std::size_t at = version.find(with);
    const std::string name = at == std::string_view::npos
                                 ? find_shape(c, *shape).member_version
                                 : std::string(version.substr(at + with.size()));
    if (const Layout* known = find_layout(c.member->name, name))
        return *known;
    if (auto recovered = recover_member(container, c, *shape, name))
        return std::move(*recovered);
    throw LayoutError(fmt::format("cannot recover {} layout '{}' from {} layout '{}'",
                                  c.member->name, name, c.container->name, container.version));
}

} // namespace

const Composition& add_composition(Composition composition) {
    validate(composition);
    if (composition_of(*composition.container))
        throw LayoutError(
            fmt::format("struct {} is composed already", composition.container->name));
    compositions().push_back(std::move(composition));
    return compositions().back();
}

const Composition* composition_of(const StructType& container) {
    for (const Composition& c : compositions())
        if (c.container == &container)
            return &c;
    return nullptr;
}

std::vector<const Composition*> containers_of(const StructType& member) {
    std::vector<const Composition*> out;
    for (const Composition& c : compositions())
        if (c.member == &member)
            out.push_back(&c);
    return out;
}

FieldId container_field(const Composition& c, unsigned path, FieldId member_field) {
    return static_cast<FieldId>(c.first_field + path * c.member->fields.size() + member_field);
}

std::optional<MemberField> member_field(const Composition& c, FieldId container_field) {
    const std::size_t n = c.member->fields.size();
    if (container_field < c.first_field || container_field >= c.first_field + c.paths.size() * n)
        return std::nullopt;
    const std::size_t i = container_field - c.first_field;
    return MemberField{static_cast<unsigned>(i / n), static_cast<FieldId>(i % n)};
}

std::vector<const Composition*> embedding_chain(const StructType& container,
                                                const StructType& member) {
    const Composition* c = composition_of(container);
    if (!c)
        return {};
    if (c->member == &member)
        return {c};
    std::vector<const Composition*> below = embedding_chain(*c->member, member);
    if (!below.empty())
        below.insert(below.begin(), c);
    return below;
}

unsigned embedded_copies(const StructType& container, const StructType& member) {
    const auto chain = embedding_chain(container, member);
    if (chain.empty())
        return 0;
    unsigned copies = 1;
    for (const Composition* c : chain)
        copies *= static_cast<unsigned>(c->paths.size());
    return copies;
}

std::optional<MemberField> embedded_field(const StructType& container, const StructType& member,
                                          FieldId field) {
    const auto chain = embedding_chain(container, member);
    if (chain.empty())
        return std::nullopt;
    MemberField at{0, field};
    for (const Composition* c : chain) {
        const auto inner = member_field(*c, at.field);
        if (!inner)
            return std::nullopt;
        at = MemberField{at.copy * static_cast<unsigned>(c->paths.size()) + inner->copy,
                         inner->field};
    }
    return at;
}

Layout compose(const Composition& c, std::string_view shape_name, const Layout& member) {
    if (member.type != c.member)
        throw LayoutError(fmt::format("layout {} is of struct {}, not {}", member.version,
                                      member.type->name, c.member->name));
    const Shape& shape = find_shape(c, shape_name);
    const StructType& type = *c.container;
    Layout out{&type,
               member.version == shape.member_version
                   ? shape.version
                   : fmt::format("{}{}{}", shape.version, with_member(c), member.version),
               0,
               8,
               {}};
    // Around a built-in member the whole struct is built-in (`--layout page_counter=v6.1` under
    // the v6.0 shape); an unknown member's origin leaves the struct's unknown too.
    if (member.origin == "built-in")
        out.origin = member.origin;
    else if (!member.origin.empty())
        out.origin = fmt::format("built-in {} {} around {} from {}", type.name, shape.version,
                                 c.member->name, member.origin);
    out.placement.resize(type.fields.size());
    std::uint32_t at = 0;
    for (const ShapeMember& m : shape.members) {
        const bool embedded = m.kind == ShapeMember::embedded;
        const std::uint32_t size = embedded ? member.size : m.size;
        const std::uint32_t align = embedded ? member.align : m.align;
        at = align_up(at, align);
        out.align = std::max(out.align, align);
        if (embedded)
            for (FieldId f = 0; f < member.placement.size(); ++f)
                if (member.has(f))
                    out.placement[container_field(c, m.path, f)] =
                        FieldPlacement{at + member.at(f).offset, member.at(f).size};
        for (const auto& [field, offset] : m.fields)
            out.placement[field] = FieldPlacement{at + offset, natural_field_size(type, field)};
        at += size;
    }
    out.size = align_up(at, out.align);
    return out;
}

std::optional<std::string> shape_of(const Layout& container) {
    const Composition* c = composition_of(*container.type);
    if (!c)
        return std::nullopt;
    // compose()'s names: "v6.0", or "v6.0 with MEMBER VERSION".
    const std::string_view version = container.version;
    const std::size_t space = version.find(' ');
    const std::string_view first = version.substr(0, space);
    if (space != std::string_view::npos && !version.substr(space).starts_with(with_member(*c)))
        return std::nullopt;
    for (const Shape& s : c->shapes)
        if (s.version == first)
            return s.version;
    return std::nullopt;
}

Layout embedded_layout(const Layout& container, const StructType& member) {
    const auto chain = embedding_chain(*container.type, member);
    if (chain.empty())
        throw LayoutError(
            fmt::format("struct {} does not embed struct {}", container.type->name, member.name));
    Layout at = container;
    for (const Composition* c : chain)
        at = member_layout(at, *c);
    return at;
}

bool holds_member_layout(const Layout& container, const Layout& member) {
    if (!container.type || !member.type)
        return false;
    const auto chain = embedding_chain(*container.type, *member.type);
    if (chain.empty())
        return false;
    const Composition& c = *chain.back();
    try {
        // The innermost container, whose shape `member` is composed into.
        const Layout holder =
            chain.size() == 1 ? container : embedded_layout(container, *c.container);
        const auto shape = shape_of(holder);
        if (!shape)
            return false;
        const Layout composed = compose(c, *shape, member);
        for (unsigned p = 0; p < c.paths.size(); ++p)
            for (FieldId f = 0; f < c.member->fields.size(); ++f) {
                const FieldId m = container_field(c, p, f);
                if (composed.has(m) != holder.has(m) ||
                    (composed.has(m) && (composed.at(m).offset != holder.at(m).offset ||
                                         composed.at(m).size != holder.at(m).size)))
                    return false;
            }
        return true;
    } catch (const LayoutError&) {
        return false;
    }
}

std::optional<Layout> layout_under(const Layout& recorded, const Layout* own_override,
                                   const Layout* member_override) {
    if (!own_override && !member_override)
        return std::nullopt;
    if (own_override && !member_override)
        return *own_override;
    const Composition& c = *composition_of(*recorded.type);
    if (own_override)
        throw LayoutError(fmt::format("give --layout {0}=... or --layout {1}=..., not both: a {0} "
                                      "layout already places its {1}s",
                                      c.container->name, c.member->name));
    const auto shape = shape_of(recorded);
    if (!shape)
        throw LayoutError(fmt::format("{} layout '{}' is not a built-in shape, so a {} layout "
                                      "cannot be placed in it",
                                      c.container->name, recorded.version, c.member->name));
    return compose(c, *shape, *member_override);
}

} // namespace hitmap::engine
