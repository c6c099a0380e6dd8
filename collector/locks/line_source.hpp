#pragma once
// The lines of a pasted lock table, cleaned of what mail and documentation put around it:
// a UTF-8 byte order mark, CR line ends, "> " quote prefixes of any depth, and the line numbers
// of a documentation listing. Every line keeps its number in the original text, for error
// messages. Joining a record that a mail client wrapped onto several lines is done through
// join_next_if(), with a test supplied by the parser, since only the parser knows what a
// continuation looks like.
// Lines are cut from the text one at a time, so a large file costs one line, not a copy.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace hitmap::locks {

struct SourceLine {
    std::size_t number = 0; // 1-based line in the original text; a joined record keeps its first
    std::string text;
};

class LineSource {
public:
    explicit LineSource(std::string_view text);

    bool done() const { return !next_.has_value(); }
    // Precondition: !done().
    const SourceLine& peek() const { return *next_; }
    SourceLine take();

    // Appends the next line to `record` (separated by one space, the one a wrapping mail client
    // dropped) when there is one and `is_continuation` accepts its text.
    bool join_next_if(SourceLine& record,
                      const std::function<bool(std::string_view)>& is_continuation);

private:
    void advance();

    std::string_view rest_; // the text after next_
    bool numbered_ = false; // a documentation listing: strip the line numbers
    std::size_t number_ = 0;
    std::optional<SourceLine> next_;
};

// The text with its quote prefixes removed: "> > > x" -> "x", " > x" -> "x".
std::string_view strip_quote_prefix(std::string_view line);

} // namespace hitmap::locks
