#include "collector/locks/line_source.hpp"

#include "collector/locks/text_scan.hpp"

#include <optional>

namespace hitmap::locks {

namespace {

// A documentation listing numbers its lines "01 ", "  02-----", "32....": optional blanks, then
// at least two digits. Returns the number and where the listed text starts.
struct Numbered {
    unsigned value = 0;
    std::size_t text_start = 0;
};

std::optional<Numbered> listing_number(std::string_view line) {
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos)
        return std::nullopt;
    const std::size_t digits_start = i;
    unsigned value = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && i - digits_start < 5) {
        value = value * 10 + static_cast<unsigned>(line[i] - '0');
        ++i;
    }
    const std::size_t digits = i - digits_start;
    if (digits < 2 || (i < line.size() && line[i] >= '0' && line[i] <= '9'))
        return std::nullopt;
    return Numbered{value, i};
}

// Strips listing numbers only when every line from the first to the last non-blank one carries
// the next number: a table's own lines start with digits too (wrapped rows, perf counts), but
// never with consecutive ones on every line.
void strip_listing_numbers(std::vector<SourceLine>& lines) {
    std::size_t first = 0;
    while (first < lines.size() && is_blank(lines[first].text))
        ++first;
    std::size_t last = lines.size();
    while (last > first && is_blank(lines[last - 1].text))
        --last;
    if (last - first < 3)
        return;
    std::vector<std::size_t> starts;
    std::optional<unsigned> expected;
    for (std::size_t i = first; i < last; ++i) {
        const auto number = listing_number(lines[i].text);
        if (!number || (expected && number->value != *expected))
            return;
        expected = number->value + 1;
        starts.push_back(number->text_start);
    }
    for (std::size_t i = first; i < last; ++i)
        lines[i].text.erase(0, starts[i - first]);
}

} // namespace

std::string_view strip_quote_prefix(std::string_view line) {
    // Some mail clients indent the marker (" > "); lock tables never start a line with '>'.
    for (;;) {
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos || line[first] != '>')
            return line;
        line.remove_prefix(first + 1);
        if (!line.empty() && line.front() == ' ')
            line.remove_prefix(1);
    }
}

LineSource::LineSource(std::string_view text) {
    std::size_t number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines_.push_back({number, std::string(strip_quote_prefix(line))});
    }
    strip_listing_numbers(lines_);
}

bool LineSource::join_next_if(SourceLine& record,
                              const std::function<bool(std::string_view)>& is_continuation) {
    if (done() || !is_continuation(peek().text))
        return false;
    record.text += ' ';
    record.text += lines_[next_++].text;
    return true;
}

} // namespace hitmap::locks
