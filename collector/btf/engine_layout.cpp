#include "collector/btf/engine_layout.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/layout/layout_registry.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

namespace hitmap::btf {

namespace {

// Fields every built-in (or plugin) layout of `type` places: the engine reaches them in every
// variant. With no known layout at all, every field.
std::vector<bool> always_placed(const engine::StructType& type) {
    std::vector<bool> always(type.fields.size(), true);
    for (const engine::Layout* known : engine::known_layouts())
        if (known->type == &type)
            for (engine::FieldId f = 0; f < type.fields.size(); ++f)
                always[f] = always[f] && known->has(f);
    return always;
}

std::string_view kind_word(MemberKind kind) {
    switch (kind) {
    case MemberKind::bitfield:
        return "a bitfield";
    case MemberKind::marker:
        return "a zero-size marker";
    default:
        return "";
    }
}

} // namespace

std::string btf_member_path(const engine::StructType& type, engine::FieldId field) {
    const std::string& name = type.fields[field];
    for (const auto& [alias, member] : type.btf_members)
        if (alias == name)
            return member;
    return name;
}

FieldMapping map_fields(const StructLayout& btf, const engine::StructType& type) {
    FieldMapping map;
    map.layout = engine::Layout{&type, btf.version, btf.size, std::max(8u, btf.align), {}};
    map.layout.origin = btf.origin;
    map.layout.placement.resize(type.fields.size());
    const std::vector<bool> always = always_placed(type);
    for (engine::FieldId f = 0; f < type.fields.size(); ++f) {
        const std::string& name = type.fields[f];
        const std::string path = btf_member_path(type, f);
        const Member* m = btf.find(path);
        if (!m) {
            map.missing.push_back(name);
            if (always[f])
                map.required.push_back(name);
            continue;
        }
        const std::uint32_t want = engine::natural_field_size(type, f);
        if (m->kind == MemberKind::bitfield || m->kind == MemberKind::marker)
            map.mismatched.push_back(fmt::format("{} is {}", path, kind_word(m->kind)));
        else if (m->size != want)
            map.mismatched.push_back(fmt::format("{} ({}) is {} bytes, the engine's {} is {}", path,
                                                 m->type, m->size, name, want));
        else
            map.layout.placement[f] =
                engine::FieldPlacement{static_cast<std::uint32_t>(m->offset()), m->size};
    }
    return map;
}

engine::Layout to_engine_layout(const StructLayout& btf, const engine::StructType& type) {
    FieldMapping map = map_fields(btf, type);
    std::vector<std::string> problems;
    if (!map.required.empty())
        problems.push_back(fmt::format("lacks {}", fmt::join(map.required, ", ")));
    problems.insert(problems.end(), map.mismatched.begin(), map.mismatched.end());
    if (!problems.empty())
        throw engine::LayoutError(fmt::format("struct {} of {} does not fit the engine: {}",
                                              type.name, btf.version, fmt::join(problems, "; ")));
    engine::validate_layout(map.layout);
    return std::move(map.layout);
}

} // namespace hitmap::btf
