#include "engine/layout/layout_loader.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_registry.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace hitmap::engine {

namespace {

bool is_power_of_two(std::uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

// A whole number in 0..max as the file wrote it. nlohmann converts silently (64.9 -> 64,
// 2^32 + 168 -> 168, -8 -> 4294967288), so the JSON type and range are checked first; the
// message shows the value as parsed (a float that was too large for an integer shows in
// exponent form).
std::uint32_t layout_number(const nlohmann::json& v, std::string_view what, std::string_view origin,
                            std::uint32_t max) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() <= max)
        return static_cast<std::uint32_t>(v.get<std::uint64_t>());
    if (v.is_number_integer() && v.get<std::int64_t>() < 0)
        throw LayoutError(fmt::format("{}: {} {} is negative", origin, what, v.dump()));
    if (v.is_number_unsigned() || v.is_number_integer())
        throw LayoutError(
            fmt::format("{}: {} {} is out of range (0..{})", origin, what, v.dump(), max));
    if (v.is_number_float())
        throw LayoutError(fmt::format("{}: {} {} is not a whole number", origin, what, v.dump()));
    throw LayoutError(fmt::format("{}: {} must be a number, not {}", origin, what, v.dump()));
}

// Names from a user's file reach reports and terminals: control characters (newline, NUL,
// ESC) are refused. nlohmann has already refused invalid UTF-8.
std::string layout_name(const nlohmann::json& v, std::string_view what, std::string_view origin) {
    if (!v.is_string())
        throw LayoutError(fmt::format("{}: {} must be a string", origin, what));
    const std::string name = v.get<std::string>();
    for (const unsigned char c : name)
        if (c < 0x20 || c == 0x7f)
            throw LayoutError(fmt::format("{}: {} {} holds a control character", origin, what,
                                          nlohmann::json(name).dump()));
    return name;
}

} // namespace

void validate_layout(const Layout& layout) {
    const auto where = [&] {
        return fmt::format("layout {} of {}", layout.version, layout.type->name);
    };
    if (!is_power_of_two(layout.align) || layout.align < 8)
        throw LayoutError(
            fmt::format("{}: align {} is not a power of two >= 8", where(), layout.align));
    if (layout.size == 0 || layout.size % layout.align != 0)
        throw LayoutError(fmt::format("{}: size {} is not a multiple of align {}", where(),
                                      layout.size, layout.align));
    if (layout.size > 65535) // probes and trace records carry 16-bit field offsets
        throw LayoutError(fmt::format("{}: size {} exceeds 65535 bytes", where(), layout.size));
    struct Span {
        std::uint32_t begin, end;
        FieldId id;
    };
    std::vector<Span> spans;
    for (FieldId id = 0; id < layout.placement.size(); ++id) {
        if (!layout.has(id))
            continue;
        const FieldPlacement& p = layout.at(id);
        const std::string& name = layout.type->fields[id];
        const std::uint32_t want = natural_field_size(*layout.type, id);
        if (p.size != want)
            throw LayoutError(fmt::format("{}: field {} has size {}, its type has size {}", where(),
                                          name, p.size, want));
        if (p.offset % p.size != 0)
            throw LayoutError(fmt::format("{}: field {} at offset {} is not {}-byte aligned",
                                          where(), name, p.offset, p.size));
        if (std::uint64_t{p.offset} + p.size > layout.size) // 64-bit: offset + size must not wrap
            throw LayoutError(fmt::format("{}: field {} (offset {}, size {}) runs past size {}",
                                          where(), name, p.offset, p.size, layout.size));
        spans.push_back({p.offset, p.offset + p.size, id});
    }
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < spans.size(); ++i)
        if (spans[i].begin < spans[i - 1].end)
            throw LayoutError(fmt::format("{}: field {} overlaps field {}", where(),
                                          layout.type->fields[spans[i].id],
                                          layout.type->fields[spans[i - 1].id]));
}

Layout parse_layout_json(std::string_view json_text, std::string_view origin) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) { // parse errors, and numbers past a double
        throw LayoutError(fmt::format("{}: not valid JSON ({})", origin, e.what()));
    }
    try {
        // Beyond 65535 validate_layout refuses the size anyway; this bound keeps the
        // arithmetic of the checks in range.
        constexpr std::uint32_t kMax = 1u << 20;
        const std::string struct_name = layout_name(doc.at("struct"), "struct", origin);
        const StructType* type = find_struct_type(struct_name);
        if (!type)
            throw LayoutError(fmt::format("{}: unknown struct '{}'", origin, struct_name));
        Layout layout{type,
                      doc.contains("version") ? layout_name(doc["version"], "version", origin)
                                              : std::string(origin),
                      layout_number(doc.at("size"), "size", origin, kMax),
                      doc.contains("align") ? layout_number(doc["align"], "align", origin, kMax)
                                            : 8u,
                      {}};
        layout.placement.resize(type->fields.size());
        for (const auto& f : doc.at("fields")) {
            const std::string name = layout_name(f.at("name"), "field name", origin);
            const auto id = type->field_id(name);
            if (!id)
                throw LayoutError(
                    fmt::format("{}: unknown field '{}' in struct {}", origin, name, struct_name));
            if (layout.placement[*id])
                throw LayoutError(fmt::format("{}: field '{}' appears twice", origin, name));
            const std::string field = fmt::format("field '{}': ", name);
            layout.placement[*id] =
                FieldPlacement{layout_number(f.at("offset"), field + "offset", origin, kMax),
                               layout_number(f.at("size"), field + "size", origin, kMax)};
        }
        validate_layout(layout);
        return layout;
    } catch (const nlohmann::json::exception& e) {
        throw LayoutError(fmt::format("{}: malformed layout ({})", origin, e.what()));
    }
}

std::string layout_json(const Layout& layout) {
    std::vector<FieldId> placed;
    for (FieldId id = 0; id < layout.placement.size(); ++id)
        if (layout.has(id))
            placed.push_back(id);
    std::stable_sort(placed.begin(), placed.end(), [&](FieldId a, FieldId b) {
        return layout.at(a).offset < layout.at(b).offset;
    });
    // One field a line, as a person writes the file.
    std::string out = fmt::format(
        "{{\"struct\": {}, \"version\": {}, \"size\": {}, \"align\": {},\n \"fields\": [",
        nlohmann::json(layout.type->name).dump(), nlohmann::json(layout.version).dump(),
        layout.size, layout.align);
    for (std::size_t i = 0; i < placed.size(); ++i)
        out += fmt::format("{}\n  {{\"name\": {}, \"offset\": {}, \"size\": {}}}", i ? "," : "",
                           nlohmann::json(layout.type->fields[placed[i]]).dump(),
                           layout.at(placed[i]).offset, layout.at(placed[i]).size);
    return out + "]}\n";
}

Layout load_layout_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in)
        throw LayoutError(fmt::format("cannot read layout file {}", path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    Layout layout = parse_layout_json(text.str(), path.filename().string());
    layout.origin = "file " + path.string();
    return layout;
}

Layout resolve_layout(std::string_view struct_name, std::string_view name_or_file) {
    if (const Layout* known = find_layout(struct_name, name_or_file))
        return *known;
    if (name_or_file.ends_with(".json")) {
        Layout layout = load_layout_file(std::filesystem::path(name_or_file));
        if (layout.type->name != struct_name)
            throw LayoutError(fmt::format("{} describes struct {}, not {}", name_or_file,
                                          layout.type->name, struct_name));
        return layout;
    }
    std::string known;
    for (const Layout* l : known_layouts())
        if (l->type->name == struct_name)
            known += (known.empty() ? "" : ", ") + l->version;
    throw LayoutError(fmt::format("unknown {} layout '{}' (known: {}; or give a .json file)",
                                  struct_name, name_or_file, known));
}

} // namespace hitmap::engine
