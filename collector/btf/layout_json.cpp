#include "collector/btf/layout_json.hpp"

#include "collector/btf/engine_layout.hpp"
#include "collector/btf/layout_text.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"

namespace hitmap::btf {

namespace {

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

} // namespace

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
