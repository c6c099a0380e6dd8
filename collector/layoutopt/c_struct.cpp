#include "collector/layoutopt/c_struct.hpp"

#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <fmt/format.h>

namespace hitmap::layoutopt {

namespace {

bool is_identifier(std::string_view s) {
    const auto alpha = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    };
    if (s.empty() || !alpha(s.front()))
        return false;
    for (const char c : s)
        if (!alpha(c) && !(c >= '0' && c <= '9'))
            return false;
    return true;
}

// The offsets a C compiler gives the fields of `lines` written with line padding between them.
void check_expressible(const engine::Layout& layout,
                       const std::vector<std::vector<engine::FieldId>>& lines) {
    if (layout.align != kLineSize || layout.size != lines.size() * kLineSize)
        throw OptimizeError(fmt::format("layout {} is not {} whole lines aligned to a line: it "
                                        "cannot be written with line padding",
                                        layout.version, lines.size()));
    for (std::size_t k = 0; k < lines.size(); ++k) {
        std::uint32_t at = static_cast<std::uint32_t>(k) * kLineSize;
        for (const engine::FieldId f : lines[k]) {
            const std::uint32_t size = layout.at(f).size;
            at = (at + size - 1) / size * size;
            if (layout.at(f).offset != at)
                throw OptimizeError(fmt::format(
                    "layout {}: field {} at offset {} is not where C puts it ({}) after the "
                    "fields before it on its line",
                    layout.version, layout.field_name(f), layout.at(f).offset, at));
            at += size;
        }
    }
}

} // namespace

std::optional<CStyle> parse_c_style(std::string_view text) {
    if (text == "padding")
        return CStyle::padding;
    if (text == "groups")
        return CStyle::groups;
    return std::nullopt;
}

std::string c_type(const engine::StructType& type, engine::FieldId field) {
    switch (type.role(field)) {
    case engine::FieldRole::hot_counter:
        return "atomic_long_t";
    case engine::FieldRole::lock:
        return "spinlock_t";
    case engine::FieldRole::parent:
        return fmt::format("struct {} *", type.name);
    case engine::FieldRole::flag:
        return "bool";
    case engine::FieldRole::limit:
        return "unsigned long";
    case engine::FieldRole::plain:
        break;
    }
    switch (engine::natural_field_size(type, field)) {
    case 1:
        return "unsigned char";
    case 2:
        return "unsigned short";
    case 4:
        return "unsigned int";
    default:
        return "unsigned long";
    }
}

std::string c_struct(const engine::Layout& layout, CStyle style) {
    const engine::StructType& type = *layout.type;
    if (!is_identifier(type.name))
        throw OptimizeError(fmt::format("struct name '{}' is not a C identifier", type.name));
    for (engine::FieldId f = 0; f < layout.placement.size(); ++f)
        if (layout.has(f) && !is_identifier(type.fields[f]))
            throw OptimizeError(fmt::format("struct {} names its field '{}', not a C identifier: "
                                            "its layout can be given as JSON only",
                                            type.name, type.fields[f]));
    const auto lines = lines_of(layout);
    check_expressible(layout, lines);
    std::string out =
        fmt::format("/* struct {}, layout {}: {} bytes, {} cacheline{} */\n", type.name,
                    layout.version, layout.size, lines.size(), lines.size() == 1 ? "" : "s");
    out += fmt::format("struct {} {{\n", type.name);
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (k > 0)
            out += fmt::format("\tCACHELINE_PADDING(_pad{}_);\n\n", k);
        if (style == CStyle::groups)
            out += fmt::format("\t__cacheline_group_begin(line{});\n", k);
        for (const engine::FieldId f : lines[k]) {
            const std::string t = c_type(type, f);
            out += fmt::format("\t{}{}{};\n", t, t.ends_with('*') ? "" : " ", type.fields[f]);
        }
        if (style == CStyle::groups)
            out += fmt::format("\t__cacheline_group_end(line{});\n", k);
    }
    return out + "} ____cacheline_aligned_in_smp;\n";
}

} // namespace hitmap::layoutopt
