#pragma once
// The perf tool (tools/perf) as a program on this machine, for doctor and --c2c perf.
#include <string>
#include <string_view>

namespace hitmap::perf {

// "<program> not found in PATH" with the package that provides it.
std::string perf_not_found(std::string_view program);

} // namespace hitmap::perf
