#include "collector/perf/perf_tool.hpp"

#include <fmt/format.h>

namespace hitmap::perf {

std::string perf_not_found(std::string_view program) {
    // Debian packages tools/perf as linux-perf.
    return fmt::format("{} not found in PATH (Debian: apt-get install linux-perf)", program);
}

} // namespace hitmap::perf
