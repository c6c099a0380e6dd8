#include "collector/locks/line_source.hpp"

#include "collector/locks/text_scan.hpp"

#include <optional>
#include <utility>

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

// The UTF-8 encoding of U+FEFF, which some Windows editors write before a text's first line to
// mark it as UTF-8: it is no part of that line, and left there it hides a section title, a
// version line or a header from every parser.
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string_view without_byte_order_mark(std::string_view text) {
    if (text.starts_with(kByteOrderMark))
        text.remove_prefix(kByteOrderMark.size());
    return text;
}

// The next raw line of `text` (without its '\n' and a CR before it), advancing `text`.
std::string_view cut_line(std::string_view& text) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    return line;
}

// Listing numbers are stripped only when every line from the first to the last non-blank one
// carries the next number: a table's own lines start with digits too (wrapped rows, perf
// counts), but never with consecutive ones on every line. Decided in one pass over the text
// without keeping its lines, so that a large file is not held twice.
bool is_numbered_listing(std::string_view text) {
    std::optional<unsigned> expected;
    std::size_t numbered = 0;
    bool trailing_blank = false;
    while (!text.empty()) {
        const std::string_view line = strip_quote_prefix(cut_line(text));
        if (is_blank(line)) {
            trailing_blank = expected.has_value();
            continue;
        }
        const auto number = listing_number(line);
        if (trailing_blank || !number || (expected && number->value != *expected))
            return false;
        expected = number->value + 1;
        ++numbered;
    }
    return numbered >= 3;
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

LineSource::LineSource(std::string_view text)
    : rest_(without_byte_order_mark(text))
    , numbered_(is_numbered_listing(rest_)) {
    advance();
}

void LineSource::advance() {
    if (rest_.empty()) {
        next_.reset();
        return;
    }
    std::string_view line = strip_quote_prefix(cut_line(rest_));
    if (numbered_ && !is_blank(line))
        line.remove_prefix(listing_number(line)->text_start);
    next_ = SourceLine{++number_, std::string(line)};
}

SourceLine LineSource::take() {
    SourceLine line = std::move(*next_);
    advance();
    return line;
}

bool LineSource::join_next_if(SourceLine& record,
                              const std::function<bool(std::string_view)>& is_continuation) {
    if (done() || !is_continuation(peek().text))
        return false;
    record.text += ' ';
    record.text += take().text;
    return true;
}

} // namespace hitmap::locks
