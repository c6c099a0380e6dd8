#include "collector/perfc2c/errors.hpp"

#include <fmt/format.h>

namespace hitmap::perfc2c {

C2cParseError::C2cParseError(std::size_t line, const std::string& reason)
    : std::runtime_error(fmt::format("line {}: {}", line, reason))
    , line_(line)
    , reason_(reason) {}

} // namespace hitmap::perfc2c
