#include "collector/btf/layout_json.hpp"

#include "collector/btf/engine_layout.hpp"
#include "collector/btf/layout_text.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <utility>

namespace hitmap::btf {

namespace {

// The kinds kind_name writes, read back: {kind, is_union}.
constexpr std::array<std::pair<std::string_view, std::pair<MemberKind, bool>>, 7> kKindNames{{
    {"field", {MemberKind::field, false}},
    {"bitfield", {MemberKind::bitfield, false}},
    {"marker", {MemberKind::marker, false}},
    {"struct", {MemberKind::composite, false}},
    {"union", {MemberKind::composite, true}},
    {"anonymous struct", {MemberKind::anonymous, false}},
    {"anonymous union", {MemberKind::anonymous, true}},
}};

std::string kind_name(const Member& m) {
    switch (m.kind) {
    case MemberKind::field:
        return "field";
    case MemberKind::bitfield:
        return "bitfield";
    case MemberKind::marker:
        return "marker";
    case MemberKind::composite:
        return m.is_union ? "union" : "struct";
    case MemberKind::anonymous:
        return m.is_union ? "anonymous union" : "anonymous struct";
    }
    return "field";
}

nlohmann::ordered_json member_json(const Member& m) {
    nlohmann::ordered_json j{{"path", m.path},
                             {"kind", kind_name(m)},
                             {"type", m.type},
                             {"depth", m.depth},
                             {"offset", m.offset()},
                             {"size", m.size},
                             {"bit_offset", m.bit_offset},
                             {"bit_size", m.bit_size}};
    if (m.elements > 1)
        j["elements"] = m.elements;
    if (m.forced_align)
        j["forced_align"] = *m.forced_align;
    if (m.kind == MemberKind::marker)
        j["marks"] = marker_note(m);
    return j;
}

// A member as member_json wrote it, or a hand-written {"name", "offset", "size"} field.
Member member_of(const nlohmann::json& j, std::string_view origin) {
    Member m;
    m.path = j.contains("path") ? j.at("path").get<std::string>() : j.at("name").get<std::string>();
    m.type = j.value("type", "");
    if (j.contains("kind")) {
        const std::string kind = j.at("kind").get<std::string>();
        const auto* known = std::find_if(kKindNames.begin(), kKindNames.end(),
                                         [&](const auto& k) { return k.first == kind; });
        if (known == kKindNames.end())
            throw engine::LayoutError(
                fmt::format("{}: member {} has unknown kind '{}'", origin, m.path, kind));
        m.kind = known->second.first;
        m.is_union = known->second.second;
    }
    // An anonymous struct or union at the top has its parent's path: none.
    if (m.path.empty() && m.kind != MemberKind::anonymous)
        throw engine::LayoutError(fmt::format("{}: a member without a name", origin));
    m.depth = j.value("depth", 0u);
    m.size = j.at("size").get<std::uint32_t>();
    m.bit_offset = j.contains("bit_offset") ? j.at("bit_offset").get<std::uint64_t>()
                                            : 8 * j.at("offset").get<std::uint64_t>();
    m.bit_size = j.contains("bit_size") ? j.at("bit_size").get<std::uint32_t>() : 8 * m.size;
    m.elements = j.value("elements", 1u);
    if (j.contains("forced_align"))
        m.forced_align = j.at("forced_align").get<std::uint32_t>();
    return m;
}

} // namespace

StructLayout parse_struct_layout_json(std::string_view json_text, std::string_view origin) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
        throw engine::LayoutError(fmt::format("{}: not valid JSON ({})", origin, e.what()));
    }
    try {
        StructLayout layout;
        layout.name = doc.at("struct").get<std::string>();
        layout.is_union = doc.value("union", false);
        layout.size = doc.at("size").get<std::uint32_t>();
        layout.align = doc.value("align", 1u);
        layout.version = doc.value("version", std::string(origin));
        layout.origin = doc.value("origin", std::string(origin));
        for (const auto& m : doc.contains("members") ? doc.at("members") : doc.at("fields")) {
            Member member = member_of(m, origin);
            if (member.end_bit() > std::uint64_t{8} * layout.size)
                throw engine::LayoutError(fmt::format("{}: member {} runs past the struct's {} "
                                                      "bytes",
                                                      origin, member.path, layout.size));
            layout.members.push_back(std::move(member));
        }
        return layout;
    } catch (const nlohmann::json::exception& e) {
        throw engine::LayoutError(fmt::format("{}: malformed layout ({})", origin, e.what()));
    }
}

nlohmann::ordered_json layout_json(const StructLayout& layout, unsigned max_depth) {
    nlohmann::ordered_json doc;
    if (const engine::StructType* type = engine::find_struct_type(layout.name)) {
        const FieldMapping map = map_fields(layout, *type);
        doc = nlohmann::ordered_json::parse(engine::layout_json(map.layout));
        doc["engine_fields_missing"] = map.missing;
        doc["engine_fields_mismatched"] = map.mismatched;
    } else {
        doc = {{"struct", layout.name},
               {"version", layout.version},
               {"size", layout.size},
               {"align", layout.align},
               {"fields", nlohmann::ordered_json::array()}};
        for (const Member& m : layout.members)
            if (m.kind == MemberKind::field)
                doc["fields"].push_back(
                    {{"name", m.path}, {"offset", m.offset()}, {"size", m.size}});
    }
    doc["union"] = layout.is_union;
    doc["origin"] = layout.origin;
    doc["line_size"] = kCacheLineSize;
    doc["tail_padding"] = layout.tail_padding();
    doc["members"] = nlohmann::ordered_json::array();
    for (const Member& m : layout.members)
        if (m.depth <= max_depth)
            doc["members"].push_back(member_json(m));
    doc["holes"] = nlohmann::ordered_json::array();
    for (const Hole& h : find_holes(layout))
        if (h.depth <= max_depth)
            doc["holes"].push_back(
                {{"bit_offset", h.bit_offset}, {"bits", h.bits}, {"depth", h.depth}});
    return doc;
}

} // namespace hitmap::btf
