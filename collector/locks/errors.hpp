#pragma once
// One exception type per failure kind, each with a decoded one-line message the CLI can print
// as is. Parsing is all-or-nothing: a parser either returns every table or throws.
#include "collector/locks/lock_stats.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace hitmap::locks {

// A line that looks like part of a lock table but cannot be parsed. what() is
// "line N: reason"; N is the line in the original text (before unquoting or unwrapping).
class LockParseError : public std::runtime_error {
public:
    LockParseError(std::size_t line, const std::string& reason);

    std::size_t line() const { return line_; }
    const std::string& reason() const { return reason_; }

private:
    std::size_t line_;
    std::string reason_;
};

// A text that is recognised but not imported (mutrace, illumos lockstat), or holds no lock
// table at all.
class UnsupportedLockFormat : public std::runtime_error {
public:
    UnsupportedLockFormat(LockFormat format, const std::string& message)
        : std::runtime_error(message)
        , format_(format) {}

    LockFormat format() const { return format_; }

private:
    LockFormat format_;
};

// A text that is not UTF-8 as a whole: UTF-16 (a byte order mark, or NUL bytes between ASCII
// ones). what() says how to convert it. (Invalid UTF-8 on a line is a LockParseError.)
class LockTextEncodingError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::locks
