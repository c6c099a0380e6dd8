#include "collector/perfc2c/column_header.hpp"

#include "collector/perfc2c/errors.hpp"

#include <algorithm>
#include <cstdint>

namespace hitmap::perfc2c {

namespace {

struct Span {
    std::size_t begin = 0, end = 0; // [begin, end) in the line
    std::string_view text;
};

// Words joined by single spaces: perf pads columns with at least two, and names ("Code
// address", "L1 Hit", "----- LLC Load Hitm -----") hold single ones.
std::vector<Span> phrases(std::string_view line) {
    std::vector<Span> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i == line.size())
            break;
        std::size_t end = i;
        while (end < line.size()) {
            if (line[end] == '\t' ||
                (line[end] == ' ' && (end + 1 == line.size() || line[end + 1] == ' ')))
                break;
            ++end;
        }
        out.push_back({i, end, line.substr(i, end - i)});
        i = end;
    }
    return out;
}

std::size_t overlap(const Span& a, const Span& b) {
    const std::size_t lo = std::max(a.begin, b.begin), hi = std::min(a.end, b.end);
    return hi > lo ? hi - lo : 0;
}

// The column a phrase belongs to: the one it overlaps most, else the nearest (a name wider
// than its dots spills into the gap).
std::size_t owner(const std::vector<Span>& columns, const Span& phrase) {
    std::size_t best = 0, best_overlap = 0;
    std::uint64_t best_distance = UINT64_MAX;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const std::size_t o = overlap(columns[c], phrase);
        const std::uint64_t distance =
            phrase.end <= columns[c].begin   ? columns[c].begin - phrase.end
            : columns[c].end <= phrase.begin ? phrase.begin - columns[c].end
                                             : 0;
        if (o > best_overlap || (best_overlap == 0 && o == 0 && distance < best_distance)) {
            best = c;
            best_overlap = o;
            best_distance = distance;
        }
    }
    return best;
}

std::string_view strip_dashes(std::string_view s) {
    const std::size_t b = s.find_first_not_of("- ");
    if (b == std::string_view::npos)
        return {};
    return s.substr(b, s.find_last_not_of("- ") - b + 1);
}

void append(std::string& to, std::string_view what) {
    if (!to.empty())
        to += ' ';
    to += what;
}

} // namespace

std::vector<Column> read_columns(std::string_view group_line, std::string_view name_line,
                                 std::string_view dot_line, std::size_t dots_line) {
    std::vector<Span> spans;
    for (const Span& p : phrases(dot_line)) {
        if (p.text.find_first_not_of('.') != std::string_view::npos)
            throw C2cParseError(dots_line, "the header's dot line holds something else than dots");
        spans.push_back(p);
    }
    if (spans.empty())
        throw C2cParseError(dots_line, "the table header has no columns");
    std::vector<Column> columns(spans.size());
    for (const Span& p : phrases(name_line))
        append(columns[owner(spans, p)].name, p.text);
    for (const Span& p : phrases(group_line)) {
        if (p.text.starts_with('-')) { // a span over several columns
            for (std::size_t c = 0; c < spans.size(); ++c)
                if (overlap(spans[c], p) > 0)
                    append(columns[c].group, strip_dashes(p.text));
        } else {
            append(columns[owner(spans, p)].group, p.text);
        }
    }
    return columns;
}

} // namespace hitmap::perfc2c
