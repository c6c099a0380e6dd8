#include "collector/layoutopt/line_layout.hpp"

#include "collector/layoutopt/errors.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <xxhash.h>

namespace hitmap::layoutopt {

namespace {

std::uint32_t align_to(std::uint32_t n, std::uint32_t a) {
    return (n + a - 1) / a * a;
}

} // namespace

std::uint32_t packed_bytes(const engine::StructType& type,
                           std::span<const engine::FieldId> fields) {
    std::uint32_t at = 0;
    for (const engine::FieldId f : fields) {
        const std::uint32_t size = engine::natural_field_size(type, f);
        at = align_to(at, size) + size;
    }
    return at;
}

engine::Layout layout_from_lines(const engine::StructType& type,
                                 const std::vector<std::vector<engine::FieldId>>& lines,
                                 std::string version) {
    engine::Layout layout;
    layout.type = &type;
    layout.version = std::move(version);
    layout.size = static_cast<std::uint32_t>(std::max<std::size_t>(lines.size(), 1)) * kLineSize;
    layout.align = kLineSize;
    layout.placement.resize(type.fields.size());
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (packed_bytes(type, lines[k]) > kLineSize)
            throw OptimizeError(fmt::format("line {} of layout {} holds {} bytes, more than a line",
                                            k, layout.version, packed_bytes(type, lines[k])));
        std::uint32_t at = 0;
        for (const engine::FieldId f : lines[k]) {
            const std::uint32_t size = engine::natural_field_size(type, f);
            at = align_to(at, size);
            layout.placement[f] =
                engine::FieldPlacement{static_cast<std::uint32_t>(k) * kLineSize + at, size};
            at += size;
        }
    }
    engine::validate_layout(layout);
    return layout;
}

std::vector<std::vector<engine::FieldId>> lines_of(const engine::Layout& layout) {
    std::vector<engine::FieldId> placed;
    for (engine::FieldId f = 0; f < layout.placement.size(); ++f)
        if (layout.has(f))
            placed.push_back(f);
    std::stable_sort(placed.begin(), placed.end(), [&](engine::FieldId a, engine::FieldId b) {
        return layout.at(a).offset < layout.at(b).offset;
    });
    std::vector<std::vector<engine::FieldId>> lines;
    std::uint32_t line = 0;
    for (const engine::FieldId f : placed) {
        const std::uint32_t at = layout.at(f).offset / kLineSize;
        if (lines.empty() || at != line)
            lines.emplace_back();
        line = at;
        lines.back().push_back(f);
    }
    return lines;
}

std::string placement_version(const engine::Layout& layout) {
    std::string text = fmt::format("{}:{}:{}", layout.type->name, layout.size, layout.align);
    for (engine::FieldId f = 0; f < layout.placement.size(); ++f)
        if (layout.has(f))
            text += fmt::format(";{}@{}+{}", layout.type->fields[f], layout.at(f).offset,
                                layout.at(f).size);
    return fmt::format("opt-{:08x}",
                       static_cast<std::uint32_t>(XXH3_64bits(text.data(), text.size())));
}

} // namespace hitmap::layoutopt
