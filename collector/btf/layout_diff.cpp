#include "collector/btf/layout_diff.hpp"

#include "collector/btf/struct_layout.hpp"
#include "collector/btf/touched_layout.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hitmap::btf {

namespace {

std::vector<std::string> sharers(const engine::Layout& l, engine::FieldId hot) {
    std::vector<std::string> names;
    const std::uint64_t line = LayoutDiff::line_of(l.at(hot));
    for (engine::FieldId f = 0; f < l.placement.size(); ++f)
        if (f != hot && l.has(f) && LayoutDiff::line_of(l.at(f)) == line)
            names.emplace_back(l.field_name(f));
    return names;
}

std::vector<std::string> minus(const std::vector<std::string>& x,
                               const std::vector<std::string>& y) {
    std::vector<std::string> out;
    for (const std::string& s : x)
        if (std::find(y.begin(), y.end(), s) == y.end())
            out.push_back(s);
    return out;
}

std::string describe(const DiffSide& l) {
    return fmt::format("{} ({}, {} bytes)", l.version,
                       l.origin.empty() ? "origin unknown" : l.origin, l.size);
}

std::string list_or_none(const std::vector<std::string>& names) {
    return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

nlohmann::ordered_json placement_json(const std::optional<engine::FieldPlacement>& p) {
    if (!p)
        return nullptr;
    return {{"offset", p->offset}, {"size", p->size}, {"line", LayoutDiff::line_of(*p)}};
}

} // namespace

std::uint64_t LayoutDiff::line_of(const engine::FieldPlacement& p) {
    return p.offset / kCacheLineSize;
}

bool LayoutDiff::moved(const FieldChange& c) {
    return c.a && c.b && line_of(*c.a) != line_of(*c.b);
}

namespace {

DiffSide side_of(const engine::Layout& l) {
    return {l.version, l.origin, l.size, l.align};
}

DiffSide side_of(const StructLayout& l) {
    return {l.version, l.origin, l.size, l.align};
}

void refuse_other_struct(std::string_view a_version, std::string_view a_struct,
                         std::string_view b_version, std::string_view b_struct) {
    if (a_struct != b_struct)
        throw engine::LayoutError(fmt::format("layout {} is of struct {}, layout {} of struct {}",
                                              a_version, a_struct, b_version, b_struct));
}

} // namespace

LayoutDiff diff_layouts(const engine::Layout& a, const engine::Layout& b) {
    if (a.type != b.type)
        refuse_other_struct(a.version, a.type->name, b.version, b.type->name);
    LayoutDiff diff{a.type->name, side_of(a), side_of(b), {}, {}};
    const engine::StructType& type = *a.type;
    for (engine::FieldId f = 0; f < type.fields.size(); ++f) {
        if (!a.has(f) && !b.has(f))
            continue;
        diff.fields.push_back({type.fields[f], a.has(f) ? std::optional(a.at(f)) : std::nullopt,
                               b.has(f) ? std::optional(b.at(f)) : std::nullopt});
        if (!engine::is_charged_usage(type, type.fields[f]) || !a.has(f) || !b.has(f))
            continue;
        HotLine hot{type.fields[f],
                    LayoutDiff::line_of(a.at(f)),
                    LayoutDiff::line_of(b.at(f)),
                    sharers(a, f),
                    sharers(b, f),
                    {},
                    {}};
        hot.left = minus(hot.a_sharers, hot.b_sharers);
        hot.joined = minus(hot.b_sharers, hot.a_sharers);
        diff.hot.push_back(std::move(hot));
    }
    return diff;
}

LayoutDiff diff_layouts(const StructLayout& a, const StructLayout& b) {
    refuse_other_struct(a.version, a.name, b.version, b.name);
    LayoutDiff diff{a.name, side_of(a), side_of(b), {}, {}};
    for (const Member& m : a.members) {
        if (!m.holds_bytes())
            continue;
        const Member* other = b.find(m.path);
        diff.fields.push_back(
            {m.path, placement_of(m),
             other && other->holds_bytes() ? std::optional(placement_of(*other)) : std::nullopt});
    }
    for (const Member& m : b.members) {
        const Member* other = a.find(m.path);
        if (m.holds_bytes() && !(other && other->holds_bytes()))
            diff.fields.push_back({m.path, std::nullopt, placement_of(m)});
    }
    return diff;
}

std::string format_diff_text(const LayoutDiff& diff) {
    std::string out =
        fmt::format("struct {}\n  A: {}\n  B: {}\n  {}-byte cache lines, counted "
                    "from offset 0 of each layout\n\n",
                    diff.struct_name, describe(diff.a), describe(diff.b), kCacheLineSize);
    std::size_t width = 5;
    for (const FieldChange& c : diff.fields)
        width = std::max(width, c.field.size());
    const auto cell = [](const std::optional<engine::FieldPlacement>& p) {
        return p ? fmt::format("{:>8} {:>5}", p->offset, LayoutDiff::line_of(*p))
                 : fmt::format("{:>8} {:>5}", "–", "–");
    };
    out += fmt::format("{:<{}}  {:>8} {:>5}  {:>8} {:>5}\n", "field", width, "A offset", "line",
                       "B offset", "line");
    std::size_t moved = 0, only_a = 0, only_b = 0;
    for (const FieldChange& c : diff.fields) {
        std::string status;
        if (LayoutDiff::moved(c)) {
            status = "moved";
            ++moved;
        } else if (!c.b) {
            status = "only in A";
            ++only_a;
        } else if (!c.a) {
            status = "only in B";
            ++only_b;
        }
        out += fmt::format("{:<{}}  {}  {}{}\n", c.field, width, cell(c.a), cell(c.b),
                           status.empty() ? "" : "  " + status);
    }
    out += fmt::format("\n{} field{} moved to another line, {} only in A, {} only in B\n", moved,
                       moved == 1 ? "" : "s", only_a, only_b);
    for (const HotLine& h : diff.hot) {
        out += fmt::format("{}'s line: A line {} shared with {}\n", h.field, h.a_line,
                           list_or_none(h.a_sharers));
        out += fmt::format("{}'s line: B line {} shared with {}\n", h.field, h.b_line,
                           list_or_none(h.b_sharers));
        out += fmt::format("moved off {}'s line: {}\n", h.field, list_or_none(h.left));
        out += fmt::format("moved onto {}'s line: {}\n", h.field, list_or_none(h.joined));
    }
    return out;
}

nlohmann::ordered_json diff_json(const LayoutDiff& diff) {
    const auto side = [](const DiffSide& l) {
        return nlohmann::ordered_json{{"version", l.version},
                                      {"origin", l.origin.empty()
                                                     ? nlohmann::ordered_json(nullptr)
                                                     : nlohmann::ordered_json(l.origin)},
                                      {"size", l.size},
                                      {"align", l.align}};
    };
    nlohmann::ordered_json doc{{"struct", diff.struct_name},
                               {"line_size", kCacheLineSize},
                               {"a", side(diff.a)},
                               {"b", side(diff.b)},
                               {"fields", nlohmann::ordered_json::array()},
                               {"hot_lines", nlohmann::ordered_json::array()}};
    for (const FieldChange& c : diff.fields)
        doc["fields"].push_back({{"name", c.field},
                                 {"a", placement_json(c.a)},
                                 {"b", placement_json(c.b)},
                                 {"moved", LayoutDiff::moved(c)}});
    for (const HotLine& h : diff.hot)
        doc["hot_lines"].push_back({{"field", h.field},
                                    {"a_line", h.a_line},
                                    {"b_line", h.b_line},
                                    {"a_sharers", h.a_sharers},
                                    {"b_sharers", h.b_sharers},
                                    {"left", h.left},
                                    {"joined", h.joined}});
    return doc;
}

} // namespace hitmap::btf
