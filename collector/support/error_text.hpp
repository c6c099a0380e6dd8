#pragma once
// An exception as the one line a user reads: a failed allocation's what() is the library's
// "std::bad_alloc", which says nothing to someone who set `ulimit -v`.
#include <exception>
#include <string>

namespace hitmap::support {

std::string error_text(const std::exception& e);

} // namespace hitmap::support
