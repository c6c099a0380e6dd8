#pragma once
// One exception type per failure kind, each with a one-line message the CLI prints after the
// file name. Parsing is all-or-nothing: the parser returns the whole report or throws.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace hitmap::perfc2c {

// A line inside a perf c2c report that cannot be read: a table row with the wrong number of
// values, a value that is not a number, a Pareto row before any line; or a report that ends
// before a section perf always prints, at its last line. what() is "line N: reason".
class C2cParseError : public std::runtime_error {
public:
    C2cParseError(std::size_t line, const std::string& reason);

    std::size_t line() const { return line_; }
    const std::string& reason() const { return reason_; }

private:
    std::size_t line_;
    std::string reason_;
};

// A text that is not a perf c2c report at all. what() says what it is instead when it is
// recognised ("perf c2c usage text", "perf mem report output", ...).
class NotAC2cReport : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A user layout (--layout STRUCT=... --base ADDR) that cannot be placed on the report's lines:
// it covers none of them, or overlaps another placed layout.
class LayoutPlacementError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A text that is not UTF-8 as a whole (UTF-16); what() says how to convert it.
class C2cTextEncodingError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::perfc2c
